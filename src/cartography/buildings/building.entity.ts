import { VersionedEntity } from '../../common/database/versioned-entity';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { CustomField } from '../../common/custom-fields';

@Entity('buildings')
@Index(['organizationId', 'deletedAt'])
export class Building extends VersionedEntity {
  @PrimaryGeneratedColumn('increment')
  id: number;

  @Column({ type: 'uuid' })
  organizationId: string;

  /** The user who created it (`user_uuid` on the wire). */
  @Column({ type: 'uuid', nullable: true })
  createdBy: string | null;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'text', default: '' })
  info: string;

  @Column({ type: 'double precision' })
  latitude: number;

  @Column({ type: 'double precision' })
  longitude: number;

  /** Metres along the building's rotated x axis. */
  @Column({ type: 'double precision' })
  width: number;

  /** Metres along the building's rotated y axis. */
  @Column({ type: 'double precision' })
  length: number;

  /** Radians, counter-clockwise from east. */
  @Column({ type: 'double precision', default: 0 })
  rotation: number;

  @Column({ type: 'json' })
  customFields: CustomField[];

  /** Deleted buildings disappear from the API; rows stay for the geofences that still name them. */
  @Column({ type: Date, nullable: true })
  deletedAt: Date | null;
}
