/**
 * Issue 36's sweep: the running self-calibration and the live estimator over many worlds, each
 * judged against a maximum-likelihood oracle that knows the true model (exponent, every
 * beacon's power, σ, the floor and what the scanner cuts), not against our own estimator.
 *
 * Every world is the issue's building (3 floors of 60 × 40 m, BLE beacons on a grid, true power
 * −59 ± 3 dBm while −59 is registered, 15 dB per floor) with one or more factors moved from the
 * base: sensitivity, the strongest-N cap, storey height, beacon spacing, exponent, shadowing
 * (independent per scan or half of it static and spatially correlated). Seeded, so every run
 * prints the same figures. `node bench/radio.mjs --sweep` runs it; `--worlds=base,n1.8` runs some;
 * `--scans=1000 --calibration-scans=2000` (per floor) are the defaults; `--oracle=own-floor` scores
 * against an oracle that uses the scan's floor only. `npm run bench` runs it as scenario 19.
 */
import { quantile } from '../src/infrastructure/estimator/cross-validation';
import { solveModel } from '../src/infrastructure/estimator/radio-model';
import { Estimate, estimatePosition, TransmitterIndex } from '../src/infrastructure/estimator/scan-estimator';
import { ScanReading } from '../src/infrastructure/estimator/scan-estimator';
import { seededRandom, SyntheticBuilding, WorldOptions } from '../test/support/synthetic-scans';
import { BASE, oracleFix, SWEEP } from './radio-worlds';
import { selfCalibrate } from './radio-calibration';

const args = Object.fromEntries(process.argv.slice(2).map((argument) => argument.replace(/^--/, '').split('=')) as Array<[string, string]>);
const TEST_SCANS = Number(args.scans ?? 1000);
const CALIBRATION_SCANS = Number(args['calibration-scans'] ?? 2000);
const SEED = Number(args.seed ?? 1);
/** `--oracle=own-floor`: an oracle that uses only the scan's own floor (what the floors above and below are worth). */
const OWN_FLOOR_ORACLE = args.oracle === 'own-floor';

interface Figures {
  median: number;
  p90: number;
  floors: number;
  coverage: number;
}

function figures(results: Array<{ estimate: Estimate; truth: { floor: number; x: number; y: number } }>): Figures {
  const errors: number[] = [];
  let onFloor = 0;
  let within = 0;
  for (const { estimate, truth } of results) {
    if (!estimate.ok) {
      errors.push(Infinity);
      continue;
    }
    if (estimate.floorId === truth.floor) onFloor += 1;
    const error = Math.hypot(estimate.x - truth.x, estimate.y - truth.y);
    errors.push(error);
    if (error <= estimate.accuracy) within += 1;
  }
  errors.sort((a, b) => a - b);
  return { median: quantile(errors, 0.5), p90: quantile(errors, 0.9), floors: onFloor / results.length, coverage: within / results.length };
}

interface Row {
  world: string;
  options: WorldOptions;
  exponents: number[];
  /** Scans each floor's model rests on. */
  scans: number[];
  states: string[];
  estimator: Figures;
  oracle: { median: number; p90: number };
  fresh: Figures;
  given: Figures;
  microsPerScan: number;
  freshMicrosPerScan: number;
  seconds: number;
}

function run(world: { name: string; options: Partial<WorldOptions> }): Row {
  const started = performance.now();
  const options: WorldOptions = { ...BASE, ...world.options };
  const building = new SyntheticBuilding(options, SEED);
  const random = seededRandom(SEED * 7919 + world.name.length * 131 + Math.round(options.exponent * 100));
  const calibration = Array.from({ length: CALIBRATION_SCANS * options.floors }, (_, i) => ({
    readings: building.scanAt(building.randomPosition(random, 1 + (i % options.floors)), random),
  }));
  // Scans that hear nothing are placed by no one: they are not scored.
  const tests: Array<{ truth: { floor: number; x: number; y: number }; readings: ScanReading[] }> = [];
  while (tests.length < TEST_SCANS) {
    const truth = building.randomPosition(random);
    const readings = building.scanAt(truth, random);
    if (readings.length > 0) tests.push({ truth, readings });
  }
  const registered = new TransmitterIndex(building.transmitters);
  const fresh = figures(tests.map((test) => ({ truth: test.truth, estimate: estimatePosition(test.readings, registered) })));
  const self = selfCalibrate(building, calibration);
  // Our estimator given the true model (powers, exponent, σ): what is left is the estimator's, not the calibration's.
  const trueIndex = new TransmitterIndex(
    building.transmitters.map((transmitter) => ({
      ...transmitter,
      referenceRssi: building.truePower.get(transmitter.id)!,
      exponent: options.exponent,
      shadowingDb: Math.sqrt(options.shadowingDb ** 2 + 1 / 12),
    })),
  );
  const given = figures(tests.map((test) => ({ truth: test.truth, estimate: estimatePosition(test.readings, trueIndex) })));
  const placed = tests.map((test) => ({ truth: test.truth, estimate: estimatePosition(test.readings, self.index) }));
  const timed = (index: TransmitterIndex) => {
    let best = Infinity;
    for (let pass = 0; pass < 3; pass += 1) {
      const start = performance.now();
      for (const test of tests) estimatePosition(test.readings, index);
      best = Math.min(best, ((performance.now() - start) * 1000) / tests.length);
    }
    return best;
  };
  const best = timed(self.index);
  const freshMicros = timed(registered);
  const oracleErrors = tests.map((test) => {
    const fix = oracleFix(building, test.readings, test.truth.floor, OWN_FLOOR_ORACLE);
    return Math.hypot(fix.x - test.truth.x, fix.y - test.truth.y);
  });
  oracleErrors.sort((a, b) => a - b);
  const models = [...self.statistics.values()].map((stats) => solveModel(stats));
  return {
    world: world.name,
    options,
    exponents: models.map((model) => model.exponent),
    scans: [...self.statistics.values()].map((stats) => Math.round(stats.scans)),
    states: models.map((model) => model.exponentFit?.state ?? '-'),
    estimator: figures(placed),
    oracle: { median: quantile(oracleErrors, 0.5), p90: quantile(oracleErrors, 0.9) },
    fresh,
    given,
    microsPerScan: best,
    freshMicrosPerScan: freshMicros,
    seconds: (performance.now() - started) / 1000,
  };
}

const only = args.worlds ? new Set(args.worlds.split(',')) : null;
const rows: Row[] = [];
const started = performance.now();
for (const world of SWEEP) if (!only || only.has(world.name)) rows.push(run(world));

const describe = (o: WorldOptions) =>
  `n ${o.exponent}, σ ${o.shadowingDb} dB${o.staticShare > 0 ? ` (${o.staticShare * 100} % static)` : ''}, ≥ ${o.sensitivity} dBm, ${o.readings[0] === o.readings[1] ? (o.readings[0] >= 1000 ? 'no cap' : `strongest ${o.readings[0]}`) : `strongest ${o.readings[0]}-${o.readings[1]}`}, ${o.spacing} m grid, ${o.storeyM} m storeys`;
console.log(
  `Radio sweep (issue 36): ${BASE.floors} floors of ${BASE.width} × ${BASE.length} m, true power ${BASE.registeredRssi} ± ${BASE.powerSpreadDb} dBm (${BASE.registeredRssi} registered), ${BASE.floorLossDb} dB per floor; ${CALIBRATION_SCANS} calibration scans per floor, ${TEST_SCANS} test scans per world; seed ${SEED}`,
);
console.log(
  '\n| world | conditions | fitted n (true) | model state | median / p90 (m) | oracle median / p90 | ratio median, p90 | floor | coverage | given the true model: median / p90 | fresh floor median / p90 | µs per scan |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  const r = row.estimator;
  console.log(
    `| ${row.world} | ${describe(row.options)} | ${row.exponents.map((n) => n.toFixed(2)).join(', ')} (${row.options.exponent}) | ${[...new Set(row.states)].join(', ')} | ${r.median.toFixed(2)} / ${r.p90.toFixed(2)} | ${row.oracle.median.toFixed(2)} / ${row.oracle.p90.toFixed(2)} | ${(r.median / row.oracle.median).toFixed(2)}×, ${(r.p90 / row.oracle.p90).toFixed(2)}× | ${(r.floors * 100).toFixed(1)} % | ${(r.coverage * 100).toFixed(1)} % | ${row.given.median.toFixed(2)} / ${row.given.p90.toFixed(2)} | ${row.fresh.median.toFixed(2)} / ${row.fresh.p90.toFixed(2)} | ${row.microsPerScan.toFixed(0)} (fresh ${row.freshMicrosPerScan.toFixed(0)}) |`,
  );
}
const misses: string[] = [];
for (const row of rows) {
  const r = row.estimator;
  for (const n of row.exponents)
    if (Math.abs(n - row.options.exponent) > 0.25) misses.push(`${row.world}: fitted n ${n.toFixed(2)} against ${row.options.exponent} (target ± 0.25)`);
  if (r.median > 1.15 * row.oracle.median) misses.push(`${row.world}: median ${(r.median / row.oracle.median).toFixed(2)}× the oracle (target 1.15×)`);
  if (r.p90 > 1.3 * row.oracle.p90) misses.push(`${row.world}: p90 ${(r.p90 / row.oracle.p90).toFixed(2)}× the oracle (target 1.3×)`);
  if (r.floors < 0.98) misses.push(`${row.world}: floor right ${(r.floors * 100).toFixed(1)} % (target 98 %)`);
  if (r.coverage < 0.68) misses.push(`${row.world}: coverage ${(r.coverage * 100).toFixed(1)} % (target 68 %)`);
}
const worst = rows.reduce((a, b) => (b.estimator.median / b.oracle.median > a.estimator.median / a.oracle.median ? b : a));
const worstP90 = rows.reduce((a, b) => (b.estimator.p90 / b.oracle.p90 > a.estimator.p90 / a.oracle.p90 ? b : a));
console.log(
  `\nWorst world by median: ${worst.world} (${(worst.estimator.median / worst.oracle.median).toFixed(2)}× the oracle); by p90: ${worstP90.world} (${(worstP90.estimator.p90 / worstP90.oracle.p90).toFixed(2)}×)`,
);
console.log(`Targets: ${misses.length === 0 ? 'all met' : `${misses.length} missed`} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
for (const miss of misses) console.log(`  - ${miss}`);
console.log(JSON.stringify({ rows: rows.map(({ options, ...rest }) => ({ ...rest, conditions: describe(options) })), misses }));
