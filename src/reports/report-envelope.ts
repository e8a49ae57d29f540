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
