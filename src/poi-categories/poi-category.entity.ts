import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('poi_categories')
export class PoiCategory {
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

  @Column({ type: 'integer', default: 1 })
  version: number;

  @Column({ type: Date })
  createdAt: Date;

  @Column({ type: Date })
  updatedAt: Date;
}
