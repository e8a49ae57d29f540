import { VersionedEntity } from '../../common/database/versioned-entity';
import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('groups')
export class Group extends VersionedEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'uuid', nullable: true })
  parentGroupId: string | null;
}
