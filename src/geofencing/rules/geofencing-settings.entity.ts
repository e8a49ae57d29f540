import { Column, Entity, PrimaryColumn } from 'typeorm';
import { VersionedEntity } from '../../common/database/versioned-entity';
import type { GeofenceRules } from '../engine/rules';

/** An organization's default rules: only the fields it sets; the rest are the contract's defaults. */
@Entity('geofencing_settings')
export class GeofencingSettings extends VersionedEntity {
  @PrimaryColumn({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'json' })
  rules: Partial<GeofenceRules>;
}
