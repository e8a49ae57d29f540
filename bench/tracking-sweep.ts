/**
 * Issue 37's tracking benchmark: walkers in a two-floor office (bench/tracking-office.ts: a
 * corridor loop, rooms off it, stairs and a lift) in worlds of issue 36's sweep
 * (bench/radio-worlds.ts), one scan a second each from the world's radio (true powers,
 * shadowing, the scanner's cut and cap, whole dB). Scored per world:
 *
 *   raw      the server's single-scan estimator with the model the running calibration learnt;
 *   tracked  the server's tracker (src/infrastructure/tracker/tracker.ts) fed those estimates;
 *   A        the maximum-likelihood single-scan oracle given the true model and floor;
 *   B        a particle filter given the true model and walking speeds, on the paths graph.
 *
 * Seeded, so every run prints the same figures (but the µs). `node bench/tracking.mjs` runs the
 * default worlds; `--full` all 22 worlds of the sweep with 30 walkers; `--worlds=base,n1.8`,
 * `--walkers=10 --seconds=360 --calibration-scans=1000 --particles=2000 --oracle-every=3 --seed=1`.
 * `npm run bench` runs it as scenario 20.
 */
import { quantile } from '../src/infrastructure/estimator/cross-validation';
import { solveModel } from '../src/infrastructure/estimator/radio-model';
import { estimatePosition, ScanReading } from '../src/infrastructure/estimator/scan-estimator';
import { Tracker } from '../src/infrastructure/tracker/tracker';
import type { TrackerSpace } from '../src/infrastructure/tracker/tracker-contract';
import { seededRandom, SyntheticBuilding, WorldOptions } from '../test/support/synthetic-scans';
import { selfCalibrate } from './radio-calibration';
import { BASE, oracleFix, SWEEP } from './radio-worlds';
import { ParticleOracle, DEFAULT_PARTICLES } from './tracking-oracle';
import { buildOffice, DEFAULT_WALK, floorChangeDelay, Office, roomAt, roomEvents, walk, Walk } from './tracking-office';

const args = Object.fromEntries(process.argv.slice(2).map((argument) => argument.replace(/^--/, '').split('=')) as Array<[string, string]>);
const FULL = 'full' in args;
const DEFAULT_WORLDS = ['base', 's-90', 'cap10', 'spacing15', 'n1.8', 'n3.5', 'sd2', 'sd6'];
const WORLDS = args.worlds ? args.worlds.split(',') : FULL ? SWEEP.map((world) => world.name) : DEFAULT_WORLDS;
const WALKERS = Number(args.walkers ?? (FULL ? 30 : 6));
const SECONDS = Number(args.seconds ?? 360);
const CALIBRATION_SCANS = Number(args['calibration-scans'] ?? (FULL ? 2000 : 1000));
const PARTICLES = Number(args.particles ?? DEFAULT_PARTICLES.particles);
const SEED = Number(args.seed ?? 1);
/** Oracle A (a 1 m grid and Nelder–Mead per scan, ~8 ms) places every third scan: a single-scan estimate's errors do not depend on the scans around it. */
const ORACLE_EVERY = Number(args['oracle-every'] ?? 3);

interface Fix {
  floorId: number;
  x: number;
  y: number;
  accuracy?: number;
}

interface Scored {
  median: number;
  p90: number;
  floors: number;
  coverage: number | null;
  /** Seconds until a floor change showed, the longest over every use of the stairs and the lift (Infinity: never before the next). */
  floorChangeS: number;
  events: number;
}

interface Row {
  world: string;
  options: WorldOptions;
  exponents: number[];
  scans: number;
  crossings: number;
  floorChanges: number;
  raw: Scored;
  tracked: Scored;
  a: Scored;
  b: Scored;
  microsEstimate: number;
  microsTracked: number;
  seconds: number;
}

/** Per estimator and walker: the fixes of the scored scans, in time order. */
type Fixes = Fix[][];

function score(office: Office, walks: Walk[], scored: number[][], fixes: Fixes): Scored {
  const errors: number[] = [];
  let onFloor = 0;
  let within = 0;
  let withAccuracy = 0;
  let floorChangeS = 0;
  let events = 0;
  walks.forEach((walked, w) => {
    const indices = scored[w];
    const fix = fixes[w];
    indices.forEach((sample, k) => {
      const truth = walked.samples[sample];
      const error = Math.hypot(fix[k].x - truth.x, fix[k].y - truth.y);
      errors.push(error);
      if (fix[k].floorId === truth.floorId) onFloor += 1;
      if (fix[k].accuracy !== undefined) {
        withAccuracy += 1;
        if (error <= fix[k].accuracy) within += 1;
      }
    });
    floorChangeS = Math.max(
      floorChangeS,
      floorChangeDelay(
        walked,
        indices,
        fix.map((f) => f.floorId),
      ),
    );
    events += roomEvents(fix.map((f) => roomAt(office, f.floorId, f.x, f.y)));
  });
  errors.sort((p, q) => p - q);
  return {
    median: quantile(errors, 0.5),
    p90: quantile(errors, 0.9),
    floors: onFloor / errors.length,
    coverage: withAccuracy > 0 ? within / withAccuracy : null,
    floorChangeS,
    events,
  };
}

function run(world: { name: string; options: Partial<WorldOptions> }): Row {
  const started = performance.now();
  const options: WorldOptions = { ...BASE, ...world.options, floors: 2 };
  const building = new SyntheticBuilding(options, SEED);
  const office = buildOffice(options.floors);
  const random = seededRandom(SEED * 7919 + world.name.length * 131 + Math.round(options.exponent * 100));
  // The running calibration settles first, on scans from anywhere in the building.
  const calibration = Array.from({ length: CALIBRATION_SCANS * options.floors }, (_, i) => ({
    readings: building.scanAt(building.randomPosition(random, 1 + (i % options.floors)), random),
  }));
  const self = selfCalibrate(building, calibration);
  const space: TrackerSpace = {
    width: options.width,
    length: options.length,
    floors: new Map(office.floors.map((floorId) => [floorId, { level: floorId - 1 }])),
    paths: { nodes: office.nodes, links: office.links },
  };
  const tracker = new Tracker(self.index, space);

  const walks: Walk[] = [];
  const scans: Array<Array<{ time: number; readings: ScanReading[] }>> = [];
  for (let w = 0; w < WALKERS; w += 1) {
    const walker = seededRandom(SEED * 1_000_003 + w * 7907 + world.name.length);
    const walked = walk(office, walker, { ...DEFAULT_WALK, seconds: SECONDS });
    walks.push(walked);
    // Each device's scans start at its own time of day (ms).
    const start = 1_800_000_000_000 + w * 1000 + Math.floor(walker() * 1000);
    scans.push(walked.samples.map((sample) => ({ time: start + sample.t * 1000, readings: building.scanAt({ floor: sample.floorId, x: sample.x, y: sample.y }, random) })));
  }

  const scored: number[][] = [];
  const scoredA: number[][] = [];
  const fixes = { raw: [] as Fixes, tracked: [] as Fixes, a: [] as Fixes, b: [] as Fixes };
  walks.forEach((walked, w) => {
    const filter = new ParticleOracle(building, office, seededRandom(SEED * 31 + w * 977 + 5), { ...DEFAULT_PARTICLES, particles: PARTICLES });
    let state: string | null = null;
    const indices: number[] = [];
    const indicesA: number[] = [];
    const raw: Fix[] = [];
    const tracked: Fix[] = [];
    const a: Fix[] = [];
    const b: Fix[] = [];
    walked.samples.forEach((truth, k) => {
      const scan = scans[w][k];
      const b1 = filter.step(scan.time / 1000, scan.readings);
      const estimate = estimatePosition(scan.readings, self.index);
      // A scan nobody can place (nothing heard) is not scored; the filter has still seen it.
      if (!estimate.ok) return;
      indices.push(k);
      raw.push({ floorId: estimate.floorId, x: estimate.x, y: estimate.y, accuracy: estimate.accuracy });
      // The seed as the pipeline would make it: the device and the scan's time.
      const step = tracker.step(state, { time: scan.time, readings: scan.readings, raw: estimate }, `walker-${w}:${scan.time}`);
      if (!step) throw new Error('The tracker refused a scan newer than its track');
      state = step.state;
      tracked.push({ floorId: step.floorId, x: step.x, y: step.y, accuracy: step.accuracy });
      if ((indices.length - 1) % ORACLE_EVERY === 0) {
        const fit = oracleFix(building, scan.readings, truth.floorId);
        indicesA.push(k);
        a.push({ floorId: truth.floorId, x: fit.x, y: fit.y });
      }
      b.push(b1);
    });
    scored.push(indices);
    scoredA.push(indicesA);
    fixes.raw.push(raw);
    fixes.tracked.push(tracked);
    fixes.a.push(a);
    fixes.b.push(b);
  });

  // CPU: the estimator alone, then the estimator and the tracker, back to back (best of three each).
  let microsEstimate = Infinity;
  let microsTracked = Infinity;
  const total = scans.reduce((sum, list) => sum + list.length, 0);
  for (let pass = 0; pass < 3; pass += 1) {
    let begin = performance.now();
    for (const list of scans) for (const scan of list) estimatePosition(scan.readings, self.index);
    microsEstimate = Math.min(microsEstimate, ((performance.now() - begin) * 1000) / total);
    begin = performance.now();
    scans.forEach((list, w) => {
      let state: string | null = null;
      list.forEach((scan, k) => {
        const estimate = estimatePosition(scan.readings, self.index);
        if (estimate.ok) state = tracker.step(state, { time: scan.time, readings: scan.readings, raw: estimate }, `walker-${w}:${scan.time}`)?.state ?? state;
      });
    });
    microsTracked = Math.min(microsTracked, ((performance.now() - begin) * 1000) / total);
  }

  const truths = walks.map((walked, w) => scored[w].map((k) => walked.samples[k]));
  return {
    world: world.name,
    options,
    exponents: [...self.statistics.values()].map((stats) => solveModel(stats).exponent),
    scans: scored.reduce((sum, list) => sum + list.length, 0),
    crossings: walks.reduce((sum, _, w) => sum + roomEvents(truths[w].map((truth) => roomAt(office, truth.floorId, truth.x, truth.y))), 0),
    floorChanges: walks.reduce((sum, walked) => sum + walked.floorChanges.length, 0),
    raw: score(office, walks, scored, fixes.raw),
    tracked: score(office, walks, scored, fixes.tracked),
    a: score(office, walks, scoredA, fixes.a),
    b: score(office, walks, scored, fixes.b),
    microsEstimate,
    microsTracked,
    seconds: (performance.now() - started) / 1000,
  };
}

const describe = (o: WorldOptions) =>
  `n ${o.exponent}, σ ${o.shadowingDb} dB${o.staticShare > 0 ? ` (${o.staticShare * 100} % static)` : ''}, ≥ ${o.sensitivity} dBm, ${o.readings[0] === o.readings[1] ? (o.readings[0] >= 1000 ? 'no cap' : `strongest ${o.readings[0]}`) : `strongest ${o.readings[0]}-${o.readings[1]}`}, ${o.spacing} m grid, ${o.storeyM} m storeys`;
const m = (value: number) => value.toFixed(2);
const pct = (value: number | null) => (value === null ? '-' : `${(value * 100).toFixed(1)} %`);
const secs = (value: number) => (value === Infinity ? 'never' : `${value} s`);

const started = performance.now();
const rows: Row[] = [];
for (const name of WORLDS) {
  const world = SWEEP.find((candidate) => candidate.name === name);
  if (!world) throw new Error(`Unknown world ${name} (${SWEEP.map((candidate) => candidate.name).join(', ')})`);
  rows.push(run(world));
}

console.log(
  `Tracking sweep (issue 37): ${BASE.width} × ${BASE.length} m office on 2 floors (corridor loop, 12 rooms a floor, stairs and a lift), ${WALKERS} walkers × ${SECONDS} s, a scan a second; ${CALIBRATION_SCANS} calibration scans per floor first; oracle A on ${ORACLE_EVERY === 1 ? 'every scan' : `one scan in ${ORACLE_EVERY}`}, oracle B ${PARTICLES} particles; seed ${SEED}`,
);
console.log(
  '\n| world | conditions | fitted n | median raw / tracked / A / B (m) | p90 raw / tracked / A / B (m) | floor raw / tracked / B | coverage raw / tracked | floor change shown (max) raw / tracked / B | events per crossing raw / tracked / B (crossings) |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  const { raw, tracked: t, a, b } = row;
  const perCrossing = (events: number) => `${(events / row.crossings).toFixed(2)}×`;
  console.log(
    `| ${row.world} | ${describe(row.options)} | ${row.exponents.map((n) => n.toFixed(2)).join(', ')} | ${m(raw.median)} / ${m(t.median)} / ${m(a.median)} / ${m(b.median)} | ${m(raw.p90)} / ${m(t.p90)} / ${m(a.p90)} / ${m(b.p90)} | ${pct(raw.floors)} / ${pct(t.floors)} / ${pct(b.floors)} | ${pct(raw.coverage)} / ${pct(t.coverage)} | ${secs(raw.floorChangeS)} / ${secs(t.floorChangeS)} / ${secs(b.floorChangeS)} (${row.floorChanges} changes) | ${perCrossing(raw.events)} / ${perCrossing(t.events)} / ${perCrossing(b.events)} (${row.crossings}) |`,
  );
}
console.log(
  '\n| world | tracked median / A (≤ 0.65×) | tracked median / B (≤ 1.15×) | tracked p90 / B (≤ 1.3×) | floor (≥ 99 %) | change shown (≤ 5 s) | coverage (≥ 68 %) | events per crossing (≤ 1.3×) |',
);
console.log('|---|---|---|---|---|---|---|---|');
const misses: string[] = [];
for (const row of rows) {
  const t = row.tracked;
  const checks = [
    { name: 'median against A', ok: t.median <= 0.65 * row.a.median, shown: `${(t.median / row.a.median).toFixed(2)}×` },
    { name: 'median against B', ok: t.median <= 1.15 * row.b.median, shown: `${(t.median / row.b.median).toFixed(2)}×` },
    { name: 'p90 against B', ok: t.p90 <= 1.3 * row.b.p90, shown: `${(t.p90 / row.b.p90).toFixed(2)}×` },
    { name: 'floor right', ok: t.floors >= 0.99, shown: pct(t.floors) },
    { name: 'floor change shown', ok: t.floorChangeS <= 5, shown: secs(t.floorChangeS) },
    { name: 'coverage', ok: (t.coverage ?? 0) >= 0.68, shown: pct(t.coverage) },
    { name: 'events per crossing', ok: t.events <= 1.3 * row.crossings, shown: `${(t.events / row.crossings).toFixed(2)}×` },
  ];
  for (const check of checks) if (!check.ok) misses.push(`${row.world}: ${check.name} ${check.shown}`);
  console.log(`| ${row.world} | ${checks.map((check) => `${check.shown} ${check.ok ? 'ok' : 'MISSED'}`).join(' | ')} |`);
}
const worst = rows.reduce((p, q) => (q.tracked.median / q.b.median > p.tracked.median / p.b.median ? q : p));
const worstP90 = rows.reduce((p, q) => (q.tracked.p90 / q.b.p90 > p.tracked.p90 / p.b.p90 ? q : p));
const worstEvents = rows.reduce((p, q) => (q.tracked.events / q.crossings > p.tracked.events / p.crossings ? q : p));
console.log(
  `\nWorst world by median: ${worst.world} (tracked ${(worst.tracked.median / worst.b.median).toFixed(2)}× B, ${(worst.tracked.median / worst.a.median).toFixed(2)}× A); by p90: ${worstP90.world} (${(worstP90.tracked.p90 / worstP90.b.p90).toFixed(2)}× B); by events: ${worstEvents.world} (${(worstEvents.tracked.events / worstEvents.crossings).toFixed(2)}× the crossings)`,
);
const scans = rows.reduce((sum, row) => sum + row.scans, 0);
const estimateMicros = rows.reduce((sum, row) => sum + row.microsEstimate * row.scans, 0) / scans;
const trackedMicros = rows.reduce((sum, row) => sum + row.microsTracked * row.scans, 0) / scans;
console.log(
  `CPU per scan (same run, best of 3 passes per world, back to back): estimatePosition ${estimateMicros.toFixed(0)} µs, estimatePosition + tracker.step ${trackedMicros.toFixed(0)} µs: ${(trackedMicros / estimateMicros).toFixed(2)}× (the whole ingest's target ≤ 1.5×)`,
);
console.log(`Targets: ${misses.length === 0 ? 'all met' : `${misses.length} missed`} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
for (const miss of misses) console.log(`  - ${miss}`);
console.log(JSON.stringify({ rows: rows.map(({ options, ...rest }) => ({ ...rest, conditions: describe(options) })), estimateMicros, trackedMicros, misses }));
