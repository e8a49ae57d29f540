import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('organizations')
export class Organization {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  // `type: Date` maps to datetime on SQLite and timestamp on PostgreSQL, where the
  // migrations create timestamptz: the pg driver reads and writes absolute instants either way.
  @Column({ type: Date })
  createdAt: Date;

  @Column({ type: Date })
  updatedAt: Date;
}
