import { afterEach, describe, expect, it } from 'vitest';
import { ISSUE_31_WORLD, seededRandom, SyntheticBuilding } from '../../../test/support/synthetic-scans';
import { AppConfig } from '../../config/app.config';
import { calibratedIndex, emptyStatistics, solveModel } from '../estimator/radio-model';
import { DEFAULT_ESTIMATOR_OPTIONS, estimatePosition, ScanReading, TransmitterIndex } from '../estimator/scan-estimator';
import { EstimatorThreads } from './estimator-threads';

const configWith = (estimatorThreads: number) => ({ positions: { estimatorThreads } }) as AppConfig;

function world(seed: number): { index: TransmitterIndex; scans: ScanReading[][] } {
  const building = new SyntheticBuilding({ ...ISSUE_31_WORLD, floors: 2 }, seed);
  const random = seededRandom(seed + 1);
  // A calibrated index as the server builds it (a model on floor 1, the prior elsewhere), so its floors carry estimations and neighbours.
  const floorIds = [...new Set(building.transmitters.map((transmitter) => transmitter.floorId))];
  const statistics = emptyStatistics();
  const radios = new Map(floorIds.map((floorId) => [floorId, { model: solveModel(statistics), estimation: { method: 'model' as const, accuracyScale: 1.1 } }]));
  const index = calibratedIndex(building.transmitters, radios);
  const scans = Array.from({ length: 60 }, () => building.scanAt(building.randomPosition(random), random));
  return { index, scans };
}

let threads: EstimatorThreads | null = null;
afterEach(async () => {
  await threads?.onModuleDestroy();
  threads = null;
});

describe('the estimator on worker threads', () => {
  it('gives the estimates of the main thread, for every scan in order, across two buildings and a thread that dropped a site', async () => {
    threads = new EstimatorThreads(configWith(1));
    const first = world(3);
    const second = world(5);
    const here = (index: TransmitterIndex, scans: ScanReading[][]) => scans.map((readings) => estimatePosition(readings, index, DEFAULT_ESTIMATOR_OPTIONS));
    const [a, b] = await Promise.all([
      threads.estimate(first.index, first.scans, DEFAULT_ESTIMATOR_OPTIONS),
      threads.estimate(second.index, second.scans, DEFAULT_ESTIMATOR_OPTIONS),
    ]);
    expect(a).toEqual(here(first.index, first.scans));
    expect(b).toEqual(here(second.index, second.scans));
    expect(a.filter((estimate) => estimate.ok).length).toBeGreaterThan(50);
    expect(threads.counts).toEqual({ threads: 120, here: 0 });
    // Ten more sites than the thread keeps: each is sent, dropped, and asked for again where needed.
    for (let revision = 2; revision < 12; revision += 1) await threads.estimate(world(3).index, first.scans.slice(0, 3), DEFAULT_ESTIMATOR_OPTIONS);
    expect(await threads.estimate(first.index, first.scans, DEFAULT_ESTIMATOR_OPTIONS)).toEqual(a);
    expect(threads.counts).toEqual({ threads: 120 + 30 + 60, here: 0 });
  });

  it('estimates on the main thread with no threads, a batch of one scan, and what a stopped thread had not answered', async () => {
    const { index, scans } = world(7);
    const expected = scans.map((readings) => estimatePosition(readings, index, DEFAULT_ESTIMATOR_OPTIONS));
    threads = new EstimatorThreads(configWith(0));
    expect(await threads.estimate(index, scans, DEFAULT_ESTIMATOR_OPTIONS)).toEqual(expected);
    threads = new EstimatorThreads(configWith(1));
    expect(await threads.estimate(index, scans.slice(0, 1), DEFAULT_ESTIMATOR_OPTIONS)).toEqual(expected.slice(0, 1));
    expect(threads.counts).toEqual({ threads: 0, here: 1 });
    // Stopped with the batch in flight (a shutdown): its promise still settles with every estimate.
    const inFlight = threads.estimate(index, scans, DEFAULT_ESTIMATOR_OPTIONS);
    await threads.onModuleDestroy();
    expect(await inFlight).toEqual(expected);
    expect(threads.counts.threads + threads.counts.here).toBe(61);
    // After the stop, batches are estimated here.
    expect(await threads.estimate(index, scans, DEFAULT_ESTIMATOR_OPTIONS)).toEqual(expected);
  });
});
