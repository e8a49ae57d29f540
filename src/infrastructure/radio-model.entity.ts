import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A floor's running self-calibration: its sufficient statistics (radio-model.ts), shared by every instance. */
@Entity('radio_models')
export class RadioModelRecord {
  @PrimaryColumn({ type: 'integer' })
  floorId: number;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'integer' })
  buildingId: number;

  /** Bumped by every merge: the condition of the next one. */
  @Column({ type: 'integer', default: 1 })
  version: number;

  /** Scans the statistics rest on (decayed). */
  @Column({ type: 'double precision', default: 0 })
  scans: number;

  /** FloorStatistics as JSON. */
  @Column({ type: 'text' })
  statistics: string;

  @Column({ type: Date })
  createdAt: Date;

  @Column({ type: Date })
  updatedAt: Date;
}
