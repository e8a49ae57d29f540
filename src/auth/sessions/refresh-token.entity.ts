import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity('refresh_tokens')
export class RefreshToken {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Index()
  @Column({ type: 'uuid' })
  sessionId: string;

  /** SHA-256 (hex) of the opaque refresh token. */
  @Column({ type: 'varchar', length: 64, unique: true })
  tokenHash: string;

  @Column({ type: Date })
  createdAt: Date;

  @Column({ type: Date })
  expiresAt: Date;

  /** Set when the token is exchanged; presenting it again revokes its session. */
  @Column({ type: Date, nullable: true })
  usedAt: Date | null;
}
