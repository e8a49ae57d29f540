import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ApiPermission } from '../../access/permissions';

@Entity('api_keys')
export class ApiKey {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Index()
  @Column({ type: 'uuid' })
  organizationId: string;

  @Index()
  @Column({ type: 'uuid' })
  userId: string;

  /** SHA-256 (hex) of the secret, what authentication looks up; only positioning keys keep a sealed copy. */
  @Column({ type: 'varchar', length: 64, unique: true })
  keyHash: string;

  /** The prefix and last characters of the secret, enough for its owner to recognise it. */
  @Column({ type: 'varchar', length: 64 })
  maskedKey: string;

  @Column({ type: 'varchar', length: 32 })
  permission: ApiPermission;

  /** Positioning keys only: the secret sealed with AES-256-GCM (see api-key-cipher.ts), so its owner can read it again. */
  @Column({ type: 'text', nullable: true })
  sealedKey: string | null;

  @Column({ type: 'varchar', length: 255, default: '' })
  description: string;

  @Column({ type: Date })
  createdAt: Date;

  @Column({ type: Date, nullable: true })
  lastUsedAt: Date | null;
}
