// The estimator's vocabulary of transmitters, below every part of it (model, map, estimator).

export type TransmitterKind = 'ble' | 'wifi';

export interface KnownTransmitter {
  /** The identifier readings carry: `uuid:major:minor` (lower case) or the BSSID. */
  key: string;
  kind: TransmitterKind;
  /** Database id, echoed in the transmitters used. */
  id: number;
  floorId: number;
  /** Floor metres. */
  x: number;
  y: number;
  /** Expected RSSI at 1 m (dBm): the registered one, plus the calibrated offset when there is a model. */
  referenceRssi: number;
  /** The path-loss exponent of the transmitter's floor; the options' when absent. */
  exponent?: number;
  /** Shadowing σ (dB) of the transmitter's floor for its kind; the options' when absent. */
  shadowingDb?: number;
  /** The level of its floor and that floor's height above the lowest (metres): where both are known, floors next to it hear it too. */
  level?: number;
  z?: number;
}

/** A storey's height where the floor does not say (`level_height`). */
export const DEFAULT_STOREY_M = 3.5;
/** What a floor between transmitter and device takes off before calibration (dB): the prior of the cross-floor offsets. */
export const FLOOR_LOSS_PRIOR_DB = 15;

/**
 * A transmitter on the floor next to `floor` (one level up or down) as that floor's model sees
 * it: its registered power less a floor's loss, and the vertical distance between the floors.
 * Null when not next to it, or when either's level or height is unknown.
 */
export function crossFloor(transmitter: KnownTransmitter, floor: { level?: number; z?: number }): { lossDb: number; dz2: number } | null {
  if (transmitter.level === undefined || transmitter.z === undefined || floor.level === undefined || floor.z === undefined) return null;
  if (Math.abs(transmitter.level - floor.level) !== 1) return null;
  return { lossDb: FLOOR_LOSS_PRIOR_DB, dz2: (transmitter.z - floor.z) ** 2 };
}

/** A transmitter's key in per-transmitter tables: kind and database id. */
export const transmitterKey = (transmitter: Pick<KnownTransmitter, 'kind' | 'id'>): string => `${transmitter.kind}:${transmitter.id}`;
