import { setImmediate as nextTurn } from 'node:timers/promises';
import { ReadStatistics, ReportStream } from './report-stream';
import { ReportColumn } from './report-envelope';

/**
 * Rows per batch of a computed report: formatting one (JSON or CSV) takes a few
 * milliseconds, and between batches the event loop takes its turn, so that ingest and
 * reads never wait behind a whole report (50,000 visits are 20 MB of JSON).
 */
export const ROWS_PER_BATCH = 2_000;

/**
 * Gives the event loop a turn between two pieces of a report's work, so that ingest and
 * reads waiting for it run first. (Stepping aside for longer when others held the loop was
 * tried: on a machine shared with other processes it mistook being descheduled for load
 * and doubled reports' time without helping ingest.)
 */
export async function reportTurn(): Promise<void> {
  await nextTurn();
}

/** Work a report does in one go before {@link ReportPacer.pause} gives the loop a turn. */
const WORK_SLICE_MS = 8;

/** Cuts a report's loop (fence by fence, say) into slices of about WORK_SLICE_MS, with a {@link reportTurn} between them. */
export class ReportPacer {
  private sliceStart = performance.now();

  async pause(): Promise<void> {
    if (performance.now() - this.sliceStart < WORK_SLICE_MS) return;
    await reportTurn();
    this.sliceStart = performance.now();
  }
}

/**
 * A report whose rows are made from `sources` (an array, or a generator consumed as the
 * answer streams) ROWS_PER_BATCH at a time, with an event-loop turn between batches. The
 * same bytes as one batch of every row.
 */
export function reportInBatches<Source, Row>(
  columns: ReadonlyArray<ReportColumn<Row>>,
  sources: Iterable<Source>,
  toRow: (source: Source) => Row,
  statistics: ReadStatistics,
  startedAt: number,
): ReportStream<Row> {
  return {
    columns,
    statistics,
    startedAt,
    batches: (async function* () {
      let batch: Row[] = [];
      for (const source of sources) {
        batch.push(toRow(source));
        if (batch.length === ROWS_PER_BATCH) {
          yield batch;
          batch = [];
          await reportTurn();
        }
      }
      if (batch.length > 0) yield batch;
    })(),
  };
}
