/**
 * Where a tag is, from what the building's gateways heard of it in one window (issue 39): plain
 * TypeScript. A gateway hearing a tag is the link of a phone hearing a beacon with the roles
 * swapped, so the gateways become the transmitters of a `TransmitterIndex` (at their places, the
 * tag's power at 1 m as their reference, each floor's exponent and σ) and the window one scan of
 * the scan estimator: its floor vote (the floors above and below through the model's floor loss),
 * its path-loss fit, its one-transmitter ring and its accuracy. No second model.
 */
import { SolvedModel } from './radio-model';
import { DEFAULT_ESTIMATOR_OPTIONS, estimatePosition, EstimatorOptions, ScanReading, TransmitterIndex } from './scan-estimator';
import { KnownTransmitter } from './transmitter';

/** One observation of the window, with its gateway where it was registered. */
export interface GatewayHearing {
  gatewayId: number;
  hardwareId: string;
  floorId: number;
  x: number;
  y: number;
  rssi: number;
  /** The power at 1 m the tag advertised (dBm), where its message carried one. */
  txPower: number | null;
}

/** What the locator needs of a floor: its level and height (floors next to each other hear through), and its model where it has one. */
export interface LocatorFloor {
  level?: number;
  /** Height above the building's lowest floor (metres). */
  z?: number;
  model?: SolvedModel;
}

export interface TagLocatorOptions {
  estimator: EstimatorOptions;
  /** A tag's power at 1 m where it advertises none (dBm): a typical BLE tag's measured power. */
  defaultTxPowerDb: number;
  /** One gateway alone never claims better than this (metres): a room. */
  minSingleAccuracyM: number;
}

export const DEFAULT_TAG_LOCATOR_OPTIONS: TagLocatorOptions = {
  // Gateways do not report what they do not hear within a window: no censored terms.
  estimator: { ...DEFAULT_ESTIMATOR_OPTIONS, censoring: false },
  defaultTxPowerDb: -59,
  minSingleAccuracyM: 3,
};

export interface TagEstimate {
  floorId: number;
  x: number;
  y: number;
  /** Metres, about 68 %. */
  accuracy: number;
  /** The gateways whose readings placed it (hardware ids), nearest first. */
  gatewaysUsed: string[];
  /** `fit`, `centroid` or `single` (one gateway: its place, the distance its reading implies as accuracy). */
  method: 'fit' | 'centroid' | 'single';
}

/**
 * One estimate of the hearings of one window, or null when none can be used. Several hearings of
 * one gateway are combined by their mean in dB; the tag's power is the mean it advertised, else
 * the default, moved by `tagOffsetDb` (what the tag is known to send beside that).
 */
export function locateTag(
  hearings: readonly GatewayHearing[],
  floors: ReadonlyMap<number, LocatorFloor>,
  tagOffsetDb = 0,
  options: TagLocatorOptions = DEFAULT_TAG_LOCATOR_OPTIONS,
): TagEstimate | null {
  const [low, high] = options.estimator.rssiRange;
  const byGateway = new Map<number, { hearing: GatewayHearing; rssi: number; count: number }>();
  let powerSum = 0;
  let powers = 0;
  for (const hearing of hearings) {
    if (!(hearing.rssi >= low && hearing.rssi <= high)) continue;
    if (hearing.txPower !== null && Number.isFinite(hearing.txPower)) {
      powerSum += hearing.txPower;
      powers += 1;
    }
    const entry = byGateway.get(hearing.gatewayId);
    if (entry) {
      entry.rssi += hearing.rssi;
      entry.count += 1;
    } else byGateway.set(hearing.gatewayId, { hearing, rssi: hearing.rssi, count: 1 });
  }
  if (byGateway.size === 0) return null;
  const reference = (powers > 0 ? powerSum / powers : options.defaultTxPowerDb) + tagOffsetDb;
  const transmitters: KnownTransmitter[] = [];
  const readings: ScanReading[] = [];
  const hardwareOf = new Map<number, string>();
  for (const [gatewayId, { hearing, rssi, count }] of byGateway) {
    const floor = floors.get(hearing.floorId);
    const model = floor?.model && floor.model.evidence !== false ? floor.model : undefined;
    const key = `gateway:${gatewayId}`;
    transmitters.push({
      key,
      kind: 'ble',
      id: gatewayId,
      floorId: hearing.floorId,
      x: hearing.x,
      y: hearing.y,
      referenceRssi: reference,
      exponent: model?.exponent,
      shadowingDb: model?.shadowingDb.ble,
      level: floor?.level,
      z: floor?.z,
    });
    readings.push({ key, kind: 'ble', rssi: rssi / count });
    hardwareOf.set(gatewayId, hearing.hardwareId);
  }
  const estimate = estimatePosition(readings, new TransmitterIndex(transmitters), options.estimator);
  if (!estimate.ok || (estimate.method !== 'fit' && estimate.method !== 'centroid' && estimate.method !== 'single')) return null;
  const accuracy = estimate.method === 'single' ? Math.max(options.minSingleAccuracyM, estimate.accuracy) : estimate.accuracy;
  return {
    floorId: estimate.floorId,
    x: estimate.x,
    y: estimate.y,
    accuracy,
    gatewaysUsed: estimate.used.map((used) => hardwareOf.get(used.id)!),
    method: estimate.method,
  };
}
