import { VersionedEntity } from '../../common/database/versioned-entity';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('poi_categories')
export class PoiCategory extends VersionedEntity {
  @PrimaryGeneratedColumn('increment')
  id: number;

  @Column({ type: 'uuid' })
  organizationId: string;

  /** Unique within the organization. */
  @Column({ type: 'varchar', length: 255 })
  code: string;

  @Column({ type: 'varchar', length: 255 })
  nameEn: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  nameEs: string;

  @Column({ type: 'boolean', default: false })
  isPublic: boolean;

  @Column({ type: 'uuid', nullable: true })
  iconImageId: string | null;

  @Column({ type: 'uuid', nullable: true })
  selectedIconImageId: string | null;
}
