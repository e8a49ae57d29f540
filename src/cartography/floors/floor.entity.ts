import { VersionedEntity } from '../../common/database/versioned-entity';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { CustomField } from '../../common/custom-fields';

@Entity('floors')
@Index(['organizationId', 'buildingId', 'deletedAt'])
export class Floor extends VersionedEntity {
  @PrimaryGeneratedColumn('increment')
  id: number;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'integer' })
  buildingId: number;

  @Column({ type: 'integer' })
  level: number;

  @Column({ type: 'double precision', nullable: true })
  levelHeight: number | null;

  @Column({ type: 'varchar', length: 255, default: '' })
  name: string;

  /** Id of the floor plan image; empty when none. */
  @Column({ type: 'varchar', length: 64, default: '' })
  mapId: string;

  /** Pixels per metre of the floor plan. */
  @Column({ type: 'double precision', nullable: true })
  scale: number | null;

  @Column({ type: 'json' })
  customFields: CustomField[];

  @Column({ type: Date, nullable: true })
  deletedAt: Date | null;
}
