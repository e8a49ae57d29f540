import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One accepted fix of the history. Written with multi-row SQL by the ingest (see
 * PositionsIngestService) and read by the reports; declared here so TypeORM knows the table.
 */
@Entity('position_history')
export class PositionRecord {
  @PrimaryColumn({ type: 'uuid' })
  organizationId: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  deviceId: string;

  @PrimaryColumn({ type: Date })
  time: Date;

  @Column({ type: 'uuid', nullable: true })
  userId: string | null;

  @Column({ type: 'integer', nullable: true })
  buildingId: number | null;

  @Column({ type: 'integer', nullable: true })
  floorId: number | null;

  @Column({ type: 'double precision' })
  lat: number;

  @Column({ type: 'double precision' })
  lng: number;

  @Column({ type: 'double precision', nullable: true })
  x: number | null;

  @Column({ type: 'double precision', nullable: true })
  y: number | null;

  @Column({ type: 'double precision' })
  accuracy: number;

  @Column({ type: 'double precision', nullable: true })
  yaw: number | null;
}
