/**
 * What the server's tracker is given and gives back (issue 37), plain TypeScript: the radio
 * model of a building, the space people walk in, and one scan at a time. The pipeline keeps a
 * device's state (the encoded string) with the device, in the transaction of its fix, so any
 * instance continues any track; a step is a pure function of (state, observation, seed).
 */
import type { Estimate, ScanReading } from '../estimator/scan-estimator';

/** A node of the building's paths graph, in the building's metres. */
export interface TrackerNode {
  id: number;
  floorId: number;
  x: number;
  y: number;
}

/** A link of the paths graph; one between nodes of two floors is a floor change (stairs, lift, escalator, ramp). */
export interface TrackerLink {
  source: number;
  target: number;
  tags: readonly string[];
}

/** Where people can be: every floor is the building's rectangle [0, width] × [0, length]; the paths graph, where there is one. */
export interface TrackerSpace {
  width: number;
  length: number;
  /** Each floor's storey number (0 = ground), for floor changes of one storey at a time. */
  floors: ReadonlyMap<number, { level: number }>;
  paths: { nodes: readonly TrackerNode[]; links: readonly TrackerLink[] } | null;
}

export interface TrackerOptions {
  /** A track is started afresh after this long without a scan (ms). */
  resetAfterMs: number;
}

export const DEFAULT_TRACKER_OPTIONS: TrackerOptions = { resetAfterMs: 30_000 };

/** One scan of a device: its time (ms), its readings and the single-scan estimate of it. */
export interface TrackerObservation {
  time: number;
  readings: readonly ScanReading[];
  raw: Extract<Estimate, { ok: true }>;
}

/** The tracked position after a scan, and the device's state to keep (under 1 KB). */
export interface TrackStep {
  floorId: number;
  x: number;
  y: number;
  /** Metres: the truth lies within this radius with about 68 % probability (from the filter's spread). */
  accuracy: number;
  /** Why a new track began here, or null where the track went on. */
  started: 'first' | 'silence' | 'contradiction' | 'building' | null;
  state: string;
}
