import { Column } from 'typeorm';

/** Columns every editable resource has: its version (the ETag) and its timestamps. */
export abstract class VersionedEntity {
  @Column({ type: 'integer', default: 1 })
  version: number;

  // `type: Date` maps to datetime on SQLite and timestamp on PostgreSQL, where the
  // migrations create timestamptz: the pg driver reads and writes absolute instants either way.
  @Column({ type: Date })
  createdAt: Date;

  @Column({ type: Date })
  updatedAt: Date;
}
