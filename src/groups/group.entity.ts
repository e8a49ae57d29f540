import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('groups')
export class Group {
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

  @Column({ type: 'integer', default: 1 })
  version: number;

  @Column({ type: Date })
  createdAt: Date;

  @Column({ type: Date })
  updatedAt: Date;
}
