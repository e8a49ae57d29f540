/** The running self-calibration as the server runs it, for the radio benchmarks. */
import { calibrate, CalibrationScan, calibrationScan } from '../src/infrastructure/estimator/calibration';
import { calibratedIndex, emptyStatistics, FloorRadio, FloorStatistics, mergeStatistics, solveModel } from '../src/infrastructure/estimator/radio-model';
import { CalibrationQueue, RUNNING_CALIBRATION } from '../src/infrastructure/estimator/running-calibration';
import { estimatePosition, ScanReading, TransmitterIndex } from '../src/infrastructure/estimator/scan-estimator';
import { SyntheticBuilding } from '../test/support/synthetic-scans';

/** The server's running self-calibration, fed the calibration scans in arrival order. */
export function selfCalibrate(building: SyntheticBuilding, scans: Array<{ readings: ScanReading[] }>): { index: TransmitterIndex; statistics: Map<number, FloorStatistics> } {
  const base = building.transmitters;
  const registered = new TransmitterIndex(base);
  const statistics = new Map<number, FloorStatistics>();
  const queue = new CalibrationQueue();
  let index = new TransmitterIndex(base);
  const rebuild = () => {
    const floors = new Map<number, FloorRadio>();
    for (const [floorId, stats] of statistics) floors.set(floorId, { model: solveModel(stats), estimation: { method: 'model', accuracyScale: 1 } });
    index = calibratedIndex(base, floors);
  };
  // A scan every 2 ms: batches close on their size, as under load.
  let now = 0;
  for (const scan of scans) {
    now += 2;
    const estimate = estimatePosition(scan.readings, index);
    if (estimate.ok && estimate.method !== 'single') {
      const stored = statistics.get(estimate.floorId)?.scans ?? 0;
      if (queue.wants(estimate.floorId, stored, now)) {
        // As the server does: every reading of the scan on its floor, and what it did not hear.
        const calibration = calibrationScan(scan.readings, registered, estimate.floorId, { x: estimate.x, y: estimate.y, known: false });
        if (calibration.readings.length >= 3) queue.add(estimate.floorId, calibration, now);
      }
    }
    const due = queue.due(now);
    for (const batch of due) {
      const stored = statistics.get(batch.floorId) ?? emptyStatistics();
      const { contribution } = calibrate(batch.scans as CalibrationScan[], stored);
      statistics.set(batch.floorId, mergeStatistics(stored, contribution, RUNNING_CALIBRATION.maxScans));
    }
    if (due.length > 0) rebuild();
  }
  for (const batch of queue.due(now, true)) {
    const stored = statistics.get(batch.floorId) ?? emptyStatistics();
    statistics.set(batch.floorId, mergeStatistics(stored, calibrate(batch.scans, stored).contribution, RUNNING_CALIBRATION.maxScans));
  }
  rebuild();
  return { index, statistics };
}
