import { StreamableFile } from '@nestjs/common';
import { stringify } from 'csv-stringify';
import { Readable } from 'node:stream';

/** A column of a report: its name on the wire and its type (ClickHouse names, as the hosted API gives them). */
export interface ReportColumn<Row> {
  name: keyof Row & string;
  type: string;
}

/** The JSON envelope of contract 8.1. */
export interface ReportEnvelope<Row> {
  meta: Array<{ name: string; type: string }>;
  data: Row[];
  rows: number;
  statistics: { elapsed: number; rows_read: number; bytes_read: number };
}

export interface ReportRun<Row> {
  columns: ReadonlyArray<ReportColumn<Row>>;
  data: Row[];
  rowsRead: number;
  bytesRead: number;
  startedAt: number;
}

export function toReportEnvelope<Row>(run: ReportRun<Row>): ReportEnvelope<Row> {
  return {
    meta: run.columns.map(({ name, type }) => ({ name, type })),
    data: run.data,
    rows: run.data.length,
    statistics: { elapsed: (performance.now() - run.startedAt) / 1000, rows_read: run.rowsRead, bytes_read: run.bytesRead },
  };
}

/** The CSV form: a header of the column names, streamed row by row, as a download. */
export function toReportCsv<Row>(run: ReportRun<Row>, fileName: string): StreamableFile {
  const names = run.columns.map((column) => column.name);
  const csv = stringify({ header: true, columns: names, cast: { boolean: (value) => String(value) } });
  Readable.from(run.data).pipe(csv);
  return new StreamableFile(csv, { type: 'text/csv; charset=utf-8', disposition: `attachment; filename="${fileName}"` });
}
