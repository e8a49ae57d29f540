import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A device that reported positions, registered on its first report, with its latest fix
 * (kept in the same row so one upsert per device and batch keeps both current). Device ids
 * are chosen by the devices, so they are unique per organization only.
 */
@Entity('devices')
export class Device {
  @PrimaryColumn({ type: 'uuid' })
  organizationId: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  id: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  code: string;

  /** Set by an administrator; empty until then. */
  @Column({ type: 'varchar', length: 255, default: '' })
  name: string;

  /** The user of the latest fix. */
  @Column({ type: 'uuid', nullable: true })
  userId: string | null;

  @Column({ type: Date, nullable: true })
  lastTime: Date | null;

  @Column({ type: 'integer', nullable: true })
  buildingId: number | null;

  @Column({ type: 'integer', nullable: true })
  floorId: number | null;

  @Column({ type: 'double precision', nullable: true })
  lat: number | null;

  @Column({ type: 'double precision', nullable: true })
  lng: number | null;

  @Column({ type: 'double precision', nullable: true })
  x: number | null;

  @Column({ type: 'double precision', nullable: true })
  y: number | null;

  @Column({ type: 'double precision', nullable: true })
  accuracy: number | null;

  @Column({ type: 'double precision', nullable: true })
  yaw: number | null;

  @Column({ type: Date })
  createdAt: Date;

  @Column({ type: Date })
  updatedAt: Date;
}
