import { StreamableFile } from '@nestjs/common';
import { Readable } from 'node:stream';
import { ApiError } from '../common/errors/api-error';
import { ErrorCode } from '../common/errors/error-code';
import { csvHeader, csvLines } from '../common/csv/csv-write';
import { ReportColumn } from './report-envelope';

export { csvCell, csvLines } from '../common/csv/csv-write';

/** What a report read: the `statistics` of the envelope, filled in while the rows stream. */
export interface ReadStatistics {
  rowsRead: number;
  bytesRead: number;
}

/** The two formats a report streams in. */
export type ReportFormat = 'json' | 'csv';

/**
 * Rows a report wrote as text itself: CSV lines (each with its `\n`) or JSON objects joined
 * by commas, and how many rows that is. A batch of no rows but some text is the beginning
 * of the batch that follows (a long batch sent in pieces, as the report worker sends it).
 */
export interface TextBatch {
  text: string;
  rows: number;
}

/**
 * A report ready to stream: its columns and its rows as batches from an async source (keyset
 * pages, a cursor). The source may run only once the answer has started, so everything
 * that can fail with a status (parameters, not found, the output cap) is checked before a
 * ReportStream is made.
 */
export interface ReportStream<Row> {
  columns: ReadonlyArray<ReportColumn<Row>>;
  /** Updated by the source as it reads; read once the last batch is out. */
  statistics: ReadStatistics;
  startedAt: number;
  /** The rows as objects, written here with JSON.stringify and the CSV cells below. */
  batches?: AsyncIterable<Row[]>;
  /**
   * Instead of `batches`: the rows written by the report straight from what it reads, with no
   * object per row (a 30-day trajectory is hundreds of thousands of rows). Its text must be
   * what the object path would write for the same rows, byte for byte.
   */
  text?: (format: ReportFormat) => AsyncIterable<TextBatch>;
  /** Stops what already runs for the answer (a report job) when it ends before its text was read: a client gone. */
  release?: () => Promise<unknown>;
}

/** A report made of rows already computed (aggregates): one batch. */
export function reportFromRows<Row>(columns: ReadonlyArray<ReportColumn<Row>>, rows: Row[], statistics: ReadStatistics, startedAt: number): ReportStream<Row> {
  return {
    columns,
    statistics,
    startedAt,
    batches: (async function* () {
      if (rows.length > 0) yield rows;
    })(),
  };
}

/** 507 `output_too_large` (contract 8.1), thrown before any byte of the answer is sent. */
export function outputTooLarge(maxRows: number, hint: string): ApiError {
  return new ApiError(507, ErrorCode.OutputTooLarge, `The report would return more than ${maxRows} rows; ${hint}`);
}

/** Throws 507 when `rows` (counted, or a bounded count of at most max + 1) exceeds the cap. */
export function enforceOutputCap(rows: number, maxRows: number, hint: string): void {
  if (rows > maxRows) throw outputTooLarge(maxRows, hint);
}

const elapsedSince = (startedAt: number) => (performance.now() - startedAt) / 1000;

/**
 * The 8.1 JSON envelope, written as the batches come: `{"meta":…,"data":[` first, each batch
 * as one string, then `],"rows":N,"statistics":…}` once the count is known. Never holds more
 * than one batch.
 */
export async function* jsonChunks<Row>(report: ReportStream<Row>): AsyncGenerator<string> {
  const meta = report.columns.map(({ name, type }) => ({ name, type }));
  yield `{"meta":${JSON.stringify(meta)},"data":[`;
  let rows = 0;
  // Inside a batch sent in pieces: no comma before the next piece.
  let inBatch = false;
  for await (const batch of textBatches(report, 'json')) {
    if (batch.text.length === 0) continue;
    yield rows > 0 && !inBatch ? `,${batch.text}` : batch.text;
    inBatch = batch.rows === 0;
    rows += batch.rows;
  }
  const statistics = { elapsed: elapsedSince(report.startedAt), rows_read: report.statistics.rowsRead, bytes_read: report.statistics.bytesRead };
  yield `],"rows":${rows},"statistics":${JSON.stringify(statistics)}}`;
}

/** The report's own text batches, or its row batches written as text. */
async function* textBatches<Row>(report: ReportStream<Row>, format: ReportFormat): AsyncGenerator<TextBatch> {
  if (report.text) {
    yield* report.text(format);
    return;
  }
  const columns = report.columns.map((column) => column.name);
  for await (const batch of report.batches ?? []) {
    if (batch.length === 0) continue;
    yield { text: format === 'csv' ? csvLines(batch, columns) : batch.map((row) => JSON.stringify(row)).join(','), rows: batch.length };
  }
}

/** CSV per RFC 4180, text cells escaped against formulas (common/csv): the header, then each batch formatted at once. */
export async function* csvChunks<Row>(report: ReportStream<Row>): AsyncGenerator<string> {
  const columns = report.columns.map((column) => column.name);
  yield csvHeader(columns);
  for await (const batch of textBatches(report, 'csv')) if (batch.text.length > 0) yield batch.text;
}

/** The chunks as the answer's body; once it closes (read to the end or not) the report lets go of what it holds. */
function body<Row>(report: ReportStream<Row>, chunks: AsyncGenerator<string>): Readable {
  const stream = Readable.from(chunks);
  const release = report.release;
  if (release) stream.once('close', () => void release().catch(() => undefined));
  return stream;
}

export function streamReportJson<Row>(report: ReportStream<Row>): StreamableFile {
  return new StreamableFile(body(report, jsonChunks(report)), { type: 'application/json; charset=utf-8' });
}

export function streamReportCsv<Row>(report: ReportStream<Row>, fileName: string): StreamableFile {
  return new StreamableFile(body(report, csvChunks(report)), { type: 'text/csv; charset=utf-8', disposition: `attachment; filename="${fileName}"` });
}
