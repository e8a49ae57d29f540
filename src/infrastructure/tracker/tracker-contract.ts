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
  /** The building's id, kept in the state: a state of another building starts a new track ('building'). */
  buildingId?: number;
}

export interface TrackerOptions {
  /** A track is started afresh after this long without a scan (ms). */
  resetAfterMs: number;
  /** Pedestrian motion: each axis's velocity is a random walk pulled back to rest (Ornstein–Uhlenbeck) with this spread (m/s) and this memory (s). */
  speedSd: number;
  velocityMemoryS: number;
  /** Walkable: within this distance of a link of the paths graph (m); beyond it a position's weight falls off as a Gaussian of this sd (m). */
  pathWidthM: number;
  pathSoftnessM: number;
  /** Walking on a link (not at a junction), the velocity across it is taken as 0 with this sd (m/s); 0: not. */
  acrossPathSpeedSd: number;
  /** At a junction of the paths graph (where a walker may turn) the velocity gains this much spread per second (m/s; 0: none). */
  junctionSpeedSd: number;
  /** The draws also weighed by the scan's likelihood against the quadratic the fit took it for (a Gaussian particle filter's weights): 0 none, 1 the likelier motion mode's draws (one evaluation of the likelihood per draw), 2 both modes'. */
  likelihoodDraws: number;
  /** Draws that enforce the floor's rectangle and the paths graph on the fitted posterior. */
  particles: number;
  /** Two motion modes, walking and at rest: a walker stops after this long on average (s), one at rest walks on after this long (s), and at rest drifts this much (m²/s). */
  pauseAfterS: number;
  resumeAfterS: number;
  restDriftM2PerS: number;
  /** How far from a floor change node of the graph (m, plus twice the track's spread) the other floor is weighed. */
  floorChangeRadiusM: number;
  /** Prior odds of a floor change near such a node, per scan (natural log). */
  floorChangeLogPrior: number;
  /** With no graph: the other floor needs this much better log evidence at once, or a better one for `floorVotes` scans in a row. */
  strongFloorEvidence: number;
  floorVotes: number;
  /**
   * A scan contradicts the track when its single-scan estimate explains it this much better (−2 log L)
   * and lies this many sd outside the predicted spread; scans do together when their excess over
   * `contradictionSlack` each, summed with this memory per scan, reaches the same.
   */
  contradictionCost: number;
  contradictionSds: number;
  contradictionSlack: number;
  contradictionMemory: number;
  /** Keep a rival place where the single-scan estimates point far from the track, and move there when it explains the scans better. */
  rivals: boolean;
  /** What a rival must explain better each scan (−2 log L) for its gain to grow, and the gain (summed with `contradictionMemory`) that moves the track there. */
  rivalSlack: number;
  rivalCost: number;
  /** The reported accuracy: this × the 68 % radius of the posterior (at least `minAccuracy`). */
  accuracyScale: number;
  minAccuracy: number;
  /** The scan's likelihood enters raised to this power (below 1 where the model is known to be only approximately right). */
  likelihoodPower: number;
}

export const DEFAULT_TRACKER_OPTIONS: TrackerOptions = {
  resetAfterMs: 30_000,
  speedSd: 1,
  velocityMemoryS: 20,
  pathWidthM: 0.75,
  pathSoftnessM: 0.3,
  acrossPathSpeedSd: 0,
  junctionSpeedSd: 0.7,
  likelihoodDraws: 1,
  particles: 14,
  pauseAfterS: 30,
  resumeAfterS: 30,
  restDriftM2PerS: 0.01,
  floorChangeRadiusM: 3,
  floorChangeLogPrior: -3,
  strongFloorEvidence: 15,
  floorVotes: 3,
  contradictionCost: 30,
  contradictionSds: 4,
  contradictionSlack: 4,
  contradictionMemory: 0.9,
  rivals: true,
  rivalSlack: 0,
  rivalCost: 12,
  accuracyScale: 1.1,
  minAccuracy: 0.5,
  likelihoodPower: 1,
};

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
