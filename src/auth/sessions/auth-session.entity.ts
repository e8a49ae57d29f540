import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ApiPermission } from '../../access/permissions';

/**
 * One login: the chain of access and refresh tokens issued from one password or API-key
 * exchange. Every access token names its session (`sid`), so revoking the session (refresh
 * token reuse, password change, key deletion, user deletion) stops all of its tokens at once.
 */
@Entity('auth_sessions')
export class AuthSession {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Index()
  @Column({ type: 'uuid' })
  userId: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  /** Set when the session was opened with an API key: its tokens follow the key's permission. */
  @Index()
  @Column({ type: 'uuid', nullable: true })
  apiKeyId: string | null;

  @Column({ type: 'varchar', length: 32 })
  permission: ApiPermission;

  @Column({ type: Date })
  createdAt: Date;

  @Column({ type: Date })
  expiresAt: Date;

  @Column({ type: Date, nullable: true })
  revokedAt: Date | null;
}
