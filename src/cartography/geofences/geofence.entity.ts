import { VersionedEntity } from '../../common/database/versioned-entity';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { CustomField } from '../../common/custom-fields';
import type { LatLng } from '../../common/geometry/polygon';

@Entity('geofences')
@Index(['organizationId', 'deleted', 'buildingId'])
@Index(['organizationId', 'deleted', 'floorId'])
@Index(['organizationId', 'deleted', 'code'])
@Index(['organizationId', 'deleted', 'nameLower'])
export class Geofence extends VersionedEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'integer' })
  buildingId: number;

  @Column({ type: 'integer' })
  floorId: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** Lower-cased name for the case-insensitive name filter. */
  @Column({ type: 'text' })
  nameLower: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  code: string;

  /** Sanitized HTML. */
  @Column({ type: 'text', default: '' })
  info: string;

  @Column({ type: 'varchar', length: 16, default: 'POLYGON' })
  type: string;

  /** [lat, lng] pairs of a closed ring. */
  @Column({ type: 'json' })
  geometric: LatLng[];

  @Column({ type: 'json' })
  customFields: CustomField[];

  @Column({ type: 'boolean', default: false })
  deleted: boolean;
}
