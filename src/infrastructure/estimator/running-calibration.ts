import { CalibrationScan } from './calibration';

/**
 * When the running self-calibration learns, plain TypeScript with the clock passed in: which
 * scans of the live stream a floor keeps, and when its batch is due to be fitted and merged
 * into the stored model. The server and the benchmark use the same policy.
 */
export interface RunningCalibrationPolicy {
  /** While a floor's model rests on fewer scans than this, every scan is kept. */
  learningScans: number;
  /** After that, at most this many scans per floor and minute. */
  steadyScansPerMinute: number;
  /** A floor's batch is fitted when it holds this many scans… */
  batchScans: number;
  /** …or when its oldest scan waited this long (ms) and it holds at least `minBatchScans`. */
  maxWaitMs: number;
  minBatchScans: number;
  /** The stored statistics rest on at most this many scans (older evidence is scaled down). */
  maxScans: number;
}

export const RUNNING_CALIBRATION: RunningCalibrationPolicy = {
  learningScans: 2_000,
  steadyScansPerMinute: 300,
  batchScans: 250,
  maxWaitMs: 10_000,
  minBatchScans: 20,
  maxScans: 20_000,
};

interface FloorQueue {
  scans: CalibrationScan[];
  firstAt: number;
  /** Steady-state budget: scans left in the current minute, and when it started. */
  budget: number;
  minuteAt: number;
}

export interface DueBatch {
  floorId: number;
  scans: CalibrationScan[];
}

/** Per floor, the scans waiting to be learnt from. */
export class CalibrationQueue {
  private readonly floors = new Map<number, FloorQueue>();

  constructor(private readonly policy: RunningCalibrationPolicy = RUNNING_CALIBRATION) {}

  /** Whether a scan of `floorId` should be kept, given how many scans its model rests on (stored plus waiting). */
  wants(floorId: number, modelScans: number, now: number): boolean {
    const queue = this.floors.get(floorId);
    const waiting = queue?.scans.length ?? 0;
    if (waiting >= this.policy.batchScans * 4) return false;
    if (modelScans + waiting < this.policy.learningScans) return true;
    if (!queue) return true;
    if (now - queue.minuteAt >= 60_000) {
      queue.minuteAt = now;
      queue.budget = this.policy.steadyScansPerMinute;
    }
    return queue.budget > 0;
  }

  add(floorId: number, scan: CalibrationScan, now: number): void {
    let queue = this.floors.get(floorId);
    if (!queue) this.floors.set(floorId, (queue = { scans: [], firstAt: now, budget: this.policy.steadyScansPerMinute, minuteAt: now }));
    if (queue.scans.length === 0) queue.firstAt = now;
    queue.scans.push(scan);
    queue.budget -= 1;
  }

  /** The batches due now (taken out of the queue); `all` takes every non-empty one (shutdown). */
  due(now: number, all = false): DueBatch[] {
    const batches: DueBatch[] = [];
    for (const [floorId, queue] of this.floors) {
      if (all ? queue.scans.length > 0 : this.ready(queue, now)) batches.push({ floorId, scans: queue.scans.splice(0, this.policy.batchScans * 4) });
    }
    return batches;
  }

  /** Whether some floor's batch is due. */
  hasDue(now: number): boolean {
    for (const queue of this.floors.values()) if (this.ready(queue, now)) return true;
    return false;
  }

  private ready(queue: FloorQueue, now: number): boolean {
    const size = queue.scans.length;
    return size >= this.policy.batchScans || (size >= this.policy.minBatchScans && now - queue.firstAt >= this.policy.maxWaitMs);
  }

  /** Scans waiting, over all floors. */
  get waiting(): number {
    let total = 0;
    for (const queue of this.floors.values()) total += queue.scans.length;
    return total;
  }
}
