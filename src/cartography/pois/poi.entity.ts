import { VersionedEntity } from '../../common/database/versioned-entity';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { CustomField } from '../../common/custom-fields';

/** A point of interest: indoor when it has a floor, outdoor otherwise. */
@Entity('pois')
export class Poi extends VersionedEntity {
  @PrimaryGeneratedColumn('increment')
  id: number;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'integer' })
  buildingId: number;

  @Column({ type: 'integer', nullable: true })
  floorId: number | null;

  @Column({ type: 'integer', nullable: true })
  categoryId: number | null;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** Sanitized HTML. */
  @Column({ type: 'text', default: '' })
  info: string;

  /** The HTML as sent, for clients that render it in a sandbox of their own. */
  @Column({ type: 'text', default: '' })
  infoUnsafe: string;

  @Column({ type: 'double precision' })
  latitude: number;

  @Column({ type: 'double precision' })
  longitude: number;

  /** Metres on the building's floor plan, derived from lat/lng (or the reverse) when written. */
  @Column({ type: 'double precision' })
  x: number;

  @Column({ type: 'double precision' })
  y: number;

  @Column({ type: 'double precision', nullable: true })
  radius: number | null;

  @Column({ type: 'json' })
  customFields: CustomField[];
}
