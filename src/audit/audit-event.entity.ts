import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Who changed which user, group, role or API key, when, and from which address. */
@Entity('audit_events')
export class AuditEvent {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'uuid', nullable: true })
  actorId: string | null;

  /** `user.create`, `group.delete`, `apikey.update`, ... */
  @Column({ type: 'varchar', length: 64 })
  action: string;

  @Column({ type: 'varchar', length: 32 })
  targetType: string;

  @Column({ type: 'varchar', length: 64 })
  targetId: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;

  @Column({ type: Date })
  createdAt: Date;
}
