import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { Role } from '../auth/roles';

@Entity('users')
export class User {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Index()
  @Column({ type: 'uuid' })
  organizationId: string;

  /** Stored lower-cased: e-mails are unique across the server, compared case-insensitively. */
  @Column({ type: 'varchar', length: 320, unique: true })
  email: string;

  @Column({ type: 'varchar', length: 255 })
  passwordHash: string;

  @Column({ type: 'varchar', length: 16 })
  role: Role;

  @Column({ type: 'varchar', length: 255, default: '' })
  fullName: string;

  @Column({ type: Date })
  createdAt: Date;

  @Column({ type: Date })
  updatedAt: Date;
}
