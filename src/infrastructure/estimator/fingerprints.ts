/**
 * Weighted k-nearest-neighbour fingerprinting (as FIND3 and Anyplace do), plain TypeScript:
 * the scans taken at reference points of a floor, averaged per point, are compared with a live
 * scan in signal space, and the scan is placed at the weighted mean of the k nearest points.
 * Any transmitter heard counts, registered or not.
 */

/** One scan at a known position of a floor: transmitter key → RSSI (dBm). */
export interface FingerprintSample {
  x: number;
  y: number;
  readings: ReadonlyMap<string, number>;
}

export interface Fingerprint {
  x: number;
  y: number;
  /** Mean RSSI per transmitter heard in any of the point's scans. */
  mean: Map<string, number>;
  /** Sum and count per transmitter, for the point less one of its scans. */
  sums: Map<string, [number, number]>;
  /** The weakest mean: a transmitter the point never heard was at most this loud there. */
  weakest: number;
  /** How many scans the point rests on. */
  scans: number;
}

export interface FingerprintFix {
  x: number;
  y: number;
  /** Weighted RMS distance of the neighbours from the fix (metres): how far they disagree. */
  spread: number;
  /** Signal distance (dB, RMS) to the nearest point. */
  nearestDb: number;
}

/** Points closer than this are one point (metres): repeated scans where the installer stood. */
const SAME_POINT_M = 0.25;

/**
 * The fingerprints of one floor. Points are the distinct positions of its samples; their
 * scans are averaged per transmitter in dB.
 */
export class FingerprintIndex {
  private readonly points: Fingerprint[];

  constructor(samples: readonly FingerprintSample[]) {
    const groups = new Map<string, { x: number; y: number; sums: Map<string, [number, number]>; scans: number }>();
    for (const sample of samples) {
      const key = `${Math.round(sample.x / SAME_POINT_M)}:${Math.round(sample.y / SAME_POINT_M)}`;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { x: sample.x, y: sample.y, sums: new Map(), scans: 0 }));
      group.scans += 1;
      for (const [transmitter, rssi] of sample.readings) {
        const sum = group.sums.get(transmitter) ?? [0, 0];
        sum[0] += rssi;
        sum[1] += 1;
        group.sums.set(transmitter, sum);
      }
    }
    this.points = [...groups.values()].map((group) => {
      const mean = new Map<string, number>();
      let weakest = 0;
      for (const [transmitter, [sum, count]] of group.sums) {
        const value = sum / count;
        mean.set(transmitter, value);
        weakest = Math.min(weakest, value);
      }
      return { x: group.x, y: group.y, mean, sums: group.sums, weakest, scans: group.scans };
    });
  }

  /** Distinct reference positions. */
  get size(): number {
    return this.points.length;
  }

  /** Positions of the points, in index order (for leave-one-out). */
  positions(): Array<{ x: number; y: number }> {
    return this.points.map((point) => ({ x: point.x, y: point.y }));
  }

  /** The point a position belongs to, or −1. */
  pointAt(x: number, y: number): number {
    return this.points.findIndex((point) => Math.hypot(point.x - x, point.y - y) < SAME_POINT_M);
  }

  /**
   * Point `index` as if `sample` (one of its scans) had not been taken: for leave-one-scan-out.
   * Null when it was the point's only scan.
   */
  without(index: number, sample: ReadonlyMap<string, number>): Fingerprint | null {
    const point = this.points[index];
    if (point.scans < 2) return null;
    const mean = new Map<string, number>();
    const sums = new Map<string, [number, number]>();
    let weakest = 0;
    for (const [transmitter, [sum, count]] of point.sums) {
      const own = sample.get(transmitter);
      const rest: [number, number] = own === undefined ? [sum, count] : [sum - own, count - 1];
      if (rest[1] === 0) continue;
      sums.set(transmitter, rest);
      const value = rest[0] / rest[1];
      mean.set(transmitter, value);
      weakest = Math.min(weakest, value);
    }
    return { x: point.x, y: point.y, mean, sums, weakest, scans: point.scans - 1 };
  }

  /**
   * The weighted mean of the `k` points nearest in signal space (weights 1/D²), `excluded` left
   * out (leave-one-out) or replaced by `replacement`. Null with no point to compare.
   */
  locate(readings: ReadonlyMap<string, number>, k: number, excluded = -1, replacement: Fingerprint | null = null): FingerprintFix | null {
    if (readings.size === 0) return null;
    let scanWeakest = 0;
    for (const rssi of readings.values()) scanWeakest = Math.min(scanWeakest, rssi);
    const best: Array<{ index: number; distance: number }> = [];
    const pointAt = (index: number) => (index === excluded && replacement ? replacement : this.points[index]);
    for (let index = 0; index < this.points.length; index += 1) {
      if (index === excluded && !replacement) continue;
      const distance = signalDistance(readings, scanWeakest, pointAt(index));
      if (best.length < k || distance < best[best.length - 1].distance) {
        best.push({ index, distance });
        best.sort((a, b) => a.distance - b.distance);
        if (best.length > k) best.pop();
      }
    }
    if (best.length === 0) return null;
    let sum = 0;
    let x = 0;
    let y = 0;
    const weights = best.map((item) => 1 / (item.distance * item.distance + 0.25));
    best.forEach((item, i) => {
      sum += weights[i];
      x += weights[i] * pointAt(item.index).x;
      y += weights[i] * pointAt(item.index).y;
    });
    x /= sum;
    y /= sum;
    let spread = 0;
    best.forEach((item, i) => {
      const point = pointAt(item.index);
      spread += weights[i] * ((point.x - x) ** 2 + (point.y - y) ** 2);
    });
    return { x, y, spread: Math.sqrt(spread / sum), nearestDb: best[0].distance };
  }
}

/**
 * RMS difference in dB over the transmitters either side heard. One side not hearing a
 * transmitter says only that it was weaker than that side's weakest reading (scanners report
 * the strongest few), so it costs only what the other side heard above that.
 */
function signalDistance(readings: ReadonlyMap<string, number>, scanWeakest: number, point: Fingerprint): number {
  let sum = 0;
  let count = 0;
  for (const [transmitter, rssi] of readings) {
    const mean = point.mean.get(transmitter);
    const difference = mean === undefined ? Math.max(0, rssi - point.weakest) : rssi - mean;
    sum += difference * difference;
    count += 1;
  }
  for (const [transmitter, mean] of point.mean) {
    if (readings.has(transmitter)) continue;
    const difference = Math.max(0, mean - scanWeakest);
    sum += difference * difference;
    count += 1;
  }
  return Math.sqrt(sum / Math.max(1, count));
}
