/**
 * Oracle B of issue 37's tracking sweep: a particle filter that knows the true radio model (the
 * exponent, every beacon's true power, σ, the floor loss, the storey and what the scanner cuts)
 * and how people walk, its particles kept on the paths graph (within 1 m of a link, to its side)
 * and changing floors only along the stairs and lift links. Plain TypeScript, seeded.
 */
import { logPhi } from '../src/infrastructure/estimator/censoring';
import { ScanReading } from '../src/infrastructure/estimator/scan-estimator';
import { gaussian, SyntheticBuilding } from '../test/support/synthetic-scans';
import { Office } from './tracking-office';

export interface ParticleOptions {
  particles: number;
  /** Walking speeds (m/s) a moving particle keeps to, and how much its speed wanders per √s. */
  speed: [number, number];
  speedWalk: number;
  /** How far to the side of its link a particle may be (m). */
  sideM: number;
  /** Chance per second that a pause ends; chance of a pause at a dead end (a room), at a lift door, elsewhere per second. */
  resume: number;
  pauseAtEnd: number;
  pauseAtLift: number;
  pauseAnywhere: number;
  /** Length of a floor link as walked (m): the stairs are slow, the lift is a ride. */
  stairsM: number;
  liftM: number;
}

export const DEFAULT_PARTICLES: ParticleOptions = {
  particles: 2000,
  speed: [0.5, 1.9],
  speedWalk: 0.15,
  sideM: 1,
  resume: 1 / 30,
  pauseAtEnd: 0.9,
  pauseAtLift: 0.5,
  pauseAnywhere: 0.003,
  stairsM: 14,
  liftM: 8,
};

/** log Φ on a table (0.01 σ steps, linear between): the filter calls it ~10⁵ times a scan. */
const TABLE_LOW = -40;
const TABLE_HIGH = 8;
const TABLE_STEP = 0.01;
let table: Float64Array | null = null;
function logPhiFast(z: number): number {
  if (z >= TABLE_HIGH) return 0;
  if (z <= TABLE_LOW) return logPhi(z);
  if (!table) {
    table = new Float64Array(Math.ceil((TABLE_HIGH - TABLE_LOW) / TABLE_STEP) + 2);
    for (let i = 0; i < table.length; i += 1) table[i] = logPhi(TABLE_LOW + i * TABLE_STEP);
  }
  const f = (z - TABLE_LOW) / TABLE_STEP;
  const i = Math.floor(f);
  return table[i] + (f - i) * (table[i + 1] - table[i]);
}

interface Edge {
  a: number;
  b: number;
  ax: number;
  ay: number;
  bx: number;
  by: number;
  /** Unit normal (to the side). */
  nx: number;
  ny: number;
  length: number;
  floorA: number;
  floorB: number;
  lift: boolean;
}

export class ParticleOracle {
  private readonly edges: Edge[] = [];
  /** Per node: the edges that meet there. */
  private readonly incident = new Map<number, number[]>();
  private readonly connectors: Set<number>;
  private readonly edge: Int32Array;
  private readonly s: Float64Array;
  private readonly dir: Int8Array;
  private readonly speed: Float64Array;
  private readonly paused: Uint8Array;
  private readonly side: Float64Array;
  private readonly logWeight: Float64Array;
  private readonly x: Float64Array;
  private readonly y: Float64Array;
  private readonly floor: Int32Array;
  private started = false;
  private time = 0;
  // The true model, as arrays.
  private readonly tx: Float64Array;
  private readonly ty: Float64Array;
  private readonly tFloor: Int32Array;
  private readonly tPower: Float64Array;
  private readonly tIndex = new Map<string, number>();
  private readonly rssi: Float64Array;

  constructor(
    private readonly building: SyntheticBuilding,
    office: Office,
    private readonly random: () => number,
    private readonly options: ParticleOptions = DEFAULT_PARTICLES,
  ) {
    const byId = new Map(office.nodes.map((node) => [node.id, node]));
    this.connectors = office.connectors;
    for (const link of office.links) {
      const a = byId.get(link.source)!;
      const b = byId.get(link.target)!;
      const flat = a.floorId === b.floorId;
      const length = flat ? Math.hypot(b.x - a.x, b.y - a.y) : link.tags.includes('elevator') ? options.liftM : options.stairsM;
      const index = this.edges.length;
      this.edges.push({
        a: a.id,
        b: b.id,
        ax: a.x,
        ay: a.y,
        bx: b.x,
        by: b.y,
        nx: flat ? -(b.y - a.y) / length : 0,
        ny: flat ? (b.x - a.x) / length : 0,
        length,
        floorA: a.floorId,
        floorB: b.floorId,
        lift: link.tags.includes('elevator'),
      });
      this.incident.set(a.id, [...(this.incident.get(a.id) ?? []), index]);
      this.incident.set(b.id, [...(this.incident.get(b.id) ?? []), index]);
    }
    const n = options.particles;
    this.edge = new Int32Array(n);
    this.s = new Float64Array(n);
    this.dir = new Int8Array(n);
    this.speed = new Float64Array(n);
    this.paused = new Uint8Array(n);
    this.side = new Float64Array(n);
    this.logWeight = new Float64Array(n);
    this.x = new Float64Array(n);
    this.y = new Float64Array(n);
    this.floor = new Int32Array(n);
    const transmitters = building.transmitters;
    this.tx = Float64Array.from(transmitters, (t) => t.x);
    this.ty = Float64Array.from(transmitters, (t) => t.y);
    this.tFloor = Int32Array.from(transmitters, (t) => t.floorId);
    this.tPower = Float64Array.from(transmitters, (t) => building.truePower.get(t.id)!);
    transmitters.forEach((t, i) => this.tIndex.set(t.key, i));
    this.rssi = new Float64Array(transmitters.length);
  }

  /** The filter after one more scan at `time` (s): the floor holding most weight and the weighted mean of its particles there. */
  step(time: number, readings: readonly ScanReading[]): { floorId: number; x: number; y: number } {
    if (!this.started) {
      this.spread();
      this.started = true;
    } else this.move(Math.max(0, time - this.time));
    this.time = time;
    this.weigh(readings);
    const estimate = this.estimate();
    this.resampleIfNeeded();
    return estimate;
  }

  /** Particles spread over the links of every floor by length, half of them pausing. */
  private spread(): void {
    const flat = this.edges.map((edge, index) => ({ edge, index })).filter(({ edge }) => edge.floorA === edge.floorB);
    const total = flat.reduce((sum, { edge }) => sum + edge.length, 0);
    for (let i = 0; i < this.options.particles; i += 1) {
      let pick = this.random() * total;
      let chosen = flat[flat.length - 1];
      for (const candidate of flat) {
        if (pick < candidate.edge.length) {
          chosen = candidate;
          break;
        }
        pick -= candidate.edge.length;
      }
      this.edge[i] = chosen.index;
      this.s[i] = this.random() * chosen.edge.length;
      this.dir[i] = this.random() < 0.5 ? 1 : -1;
      this.speed[i] = this.options.speed[0] + this.random() * (this.options.speed[1] - this.options.speed[0]);
      this.paused[i] = this.random() < 0.5 ? 1 : 0;
      this.side[i] = (this.random() * 2 - 1) * this.options.sideM;
      this.logWeight[i] = 0;
      this.place(i);
    }
  }

  private move(dt: number): void {
    const o = this.options;
    for (let i = 0; i < o.particles; i += 1) {
      this.side[i] = Math.max(-o.sideM, Math.min(o.sideM, this.side[i] + 0.15 * Math.sqrt(dt) * gaussian(this.random)));
      if (this.paused[i]) {
        if (this.random() < 1 - Math.exp(-o.resume * dt)) this.paused[i] = 0;
        else {
          this.place(i);
          continue;
        }
      } else if (this.random() < o.pauseAnywhere * dt) {
        this.paused[i] = 1;
        this.place(i);
        continue;
      }
      this.speed[i] = Math.max(o.speed[0], Math.min(o.speed[1], this.speed[i] + o.speedWalk * Math.sqrt(dt) * gaussian(this.random)));
      let remaining = this.speed[i] * dt;
      for (let hops = 0; hops < 20 && remaining > 0; hops += 1) {
        const edge = this.edges[this.edge[i]];
        const toEnd = this.dir[i] > 0 ? edge.length - this.s[i] : this.s[i];
        if (remaining < toEnd) {
          this.s[i] += this.dir[i] * remaining;
          remaining = 0;
          break;
        }
        remaining -= toEnd;
        const node = this.dir[i] > 0 ? edge.b : edge.a;
        const others = this.incident.get(node)!.filter((e) => e !== this.edge[i]);
        if (others.length === 0) {
          // A dead end (a room): turn, most often after a pause.
          this.s[i] = this.dir[i] > 0 ? edge.length : 0;
          this.dir[i] = -this.dir[i] as 1 | -1;
          if (this.random() < o.pauseAtEnd) {
            this.paused[i] = 1;
            break;
          }
          continue;
        }
        const next = others[Math.floor(this.random() * others.length)];
        const nextEdge = this.edges[next];
        this.edge[i] = next;
        this.dir[i] = nextEdge.a === node ? 1 : -1;
        this.s[i] = nextEdge.a === node ? 0 : nextEdge.length;
        if (this.connectors.has(node) && nextEdge.lift && nextEdge.floorA !== nextEdge.floorB && this.random() < o.pauseAtLift) {
          // Waiting at the lift door.
          this.paused[i] = 1;
          break;
        }
      }
      this.place(i);
    }
  }

  private place(i: number): void {
    const edge = this.edges[this.edge[i]];
    if (edge.floorA !== edge.floorB) {
      this.x[i] = edge.ax;
      this.y[i] = edge.ay;
      this.floor[i] = this.s[i] < edge.length / 2 ? edge.floorA : edge.floorB;
      return;
    }
    const f = this.s[i] / edge.length;
    this.x[i] = edge.ax + f * (edge.bx - edge.ax) + this.side[i] * edge.nx;
    this.y[i] = edge.ay + f * (edge.by - edge.ay) + this.side[i] * edge.ny;
    this.floor[i] = edge.floorA;
  }

  /** The true model's log-likelihood of the scan at every particle, heard and censored (as the single-scan oracle counts them). */
  private weigh(readings: readonly ScanReading[]): void {
    const options = this.building.options;
    const sigma = Math.sqrt(options.shadowingDb ** 2 + 1 / 12);
    this.rssi.fill(NaN);
    let weakest = Infinity;
    for (const reading of readings) {
      const index = this.tIndex.get(reading.key);
      if (index !== undefined) this.rssi[index] = reading.rssi;
      weakest = Math.min(weakest, reading.rssi);
    }
    const threshold = readings.length >= options.readings[0] ? weakest + 0.5 : options.sensitivity - 0.5;
    const n = this.tx.length;
    const k = 5 * options.exponent * Math.LOG10E;
    for (let i = 0; i < this.options.particles; i += 1) {
      let sum = 0;
      const x = this.x[i];
      const y = this.y[i];
      const floor = this.floor[i];
      for (let j = 0; j < n; j += 1) {
        const storeys = Math.abs(this.tFloor[j] - floor);
        const dz = storeys * options.storeyM;
        const d2 = Math.max(0.25, (x - this.tx[j]) ** 2 + (y - this.ty[j]) ** 2 + dz * dz);
        const mean = this.tPower[j] - storeys * options.floorLossDb - k * Math.log(d2);
        const heard = this.rssi[j];
        if (heard === heard) {
          const r = (heard - mean) / sigma;
          sum -= (r * r) / 2;
        } else sum += logPhiFast((threshold - mean) / sigma);
      }
      this.logWeight[i] += sum;
    }
  }

  private estimate(): { floorId: number; x: number; y: number } {
    let top = -Infinity;
    for (let i = 0; i < this.options.particles; i += 1) top = Math.max(top, this.logWeight[i]);
    const byFloor = new Map<number, { w: number; x: number; y: number }>();
    for (let i = 0; i < this.options.particles; i += 1) {
      const w = Math.exp(this.logWeight[i] - top);
      const entry = byFloor.get(this.floor[i]) ?? { w: 0, x: 0, y: 0 };
      entry.w += w;
      entry.x += w * this.x[i];
      entry.y += w * this.y[i];
      byFloor.set(this.floor[i], entry);
    }
    let best: [number, { w: number; x: number; y: number }] | null = null;
    for (const entry of byFloor) if (!best || entry[1].w > best[1].w) best = entry;
    return { floorId: best![0], x: best![1].x / best![1].w, y: best![1].y / best![1].w };
  }

  /** Systematic resampling when the effective sample size falls below half. */
  private resampleIfNeeded(): void {
    const n = this.options.particles;
    let top = -Infinity;
    for (let i = 0; i < n; i += 1) top = Math.max(top, this.logWeight[i]);
    const weights = new Float64Array(n);
    let sum = 0;
    let squares = 0;
    for (let i = 0; i < n; i += 1) {
      weights[i] = Math.exp(this.logWeight[i] - top);
      sum += weights[i];
    }
    for (let i = 0; i < n; i += 1) squares += (weights[i] / sum) ** 2;
    if (1 / squares >= n / 2) {
      for (let i = 0; i < n; i += 1) this.logWeight[i] -= top;
      return;
    }
    const picks = new Int32Array(n);
    const u0 = this.random() / n;
    let cumulative = weights[0] / sum;
    let j = 0;
    for (let i = 0; i < n; i += 1) {
      const u = u0 + i / n;
      while (u > cumulative && j < n - 1) {
        j += 1;
        cumulative += weights[j] / sum;
      }
      picks[i] = j;
    }
    const copy = <T extends Int32Array | Float64Array | Int8Array | Uint8Array>(array: T) => {
      const old = array.slice();
      for (let i = 0; i < n; i += 1) array[i] = old[picks[i]];
    };
    copy(this.edge);
    copy(this.s);
    copy(this.dir);
    copy(this.speed);
    copy(this.paused);
    copy(this.side);
    copy(this.x);
    copy(this.y);
    copy(this.floor);
    this.logWeight.fill(0);
  }
}
