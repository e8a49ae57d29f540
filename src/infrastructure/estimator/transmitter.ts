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
}

/** A transmitter's key in per-transmitter tables: kind and database id. */
export const transmitterKey = (transmitter: Pick<KnownTransmitter, 'kind' | 'id'>): string => `${transmitter.kind}:${transmitter.id}`;
