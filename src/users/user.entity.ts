import { VersionedEntity } from '../common/database/versioned-entity';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { Role } from '../access/roles';

@Entity('users')
export class User extends VersionedEntity {
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

  /** fullName lower-cased by the application, for the case-insensitive name filter. */
  @Column({ type: 'text', default: '' })
  fullNameLower: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  code: string;

  @Column({ type: 'varchar', length: 16, default: 'en' })
  locale: string;

  @Column({ type: 'text', default: '' })
  info: string;

  @Column({ type: 'varchar', length: 16, default: '' })
  iconColour: string;

  @Column({ type: 'boolean', default: false })
  isVerified: boolean;

  @Column({ type: Date, nullable: true })
  lastActivity: Date | null;

  /**
   * The buildings this user is restricted to (null or empty: all of the organization's).
   * Mirrors user_buildings so that authentication reads it in the same query.
   */
  @Column({ type: 'json', nullable: true })
  buildingScope: number[] | null;
}
