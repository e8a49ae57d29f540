import { Column, Entity, PrimaryColumn } from 'typeorm';
import { VersionedEntity } from '../../common/database/versioned-entity';
import type { GeofenceRules } from '../engine/rules';

/** A fence's own rules: only the fields it overrides; the rest come from its organization's settings. */
@Entity('geofence_rules')
export class GeofenceRuleSet extends VersionedEntity {
  @PrimaryColumn({ type: 'uuid' })
  geofenceId: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'json' })
  rules: Partial<GeofenceRules>;
}
