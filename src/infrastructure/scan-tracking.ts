import { Injectable } from '@nestjs/common';
import { toGeoreference } from '../common/geometry/cartesian';
import type { FixRefiner } from '../fix-pipeline/fix-refiner';
import type { DeviceTrackState } from '../positions/device-track-states.repository';
import type { AcceptedFix, DeviceTrack } from '../positions/fix';
import type { TransmitterIndex } from './estimator/scan-estimator';
import type { EstimatedFix, PlacedSite } from './scan-positioning.service';
import { Tracker } from './tracker/tracker';
import type { TrackerSpace, TrackStep } from './tracker/tracker-contract';

/** What became of a scan's position: tracked (the track went on or started here), late (older than the track: stored as estimated), or off (the building does not track). */
export type TrackStatus = 'tracked' | 'started' | 'late' | 'off';

export interface TrackOutcome {
  status: TrackStatus;
  /** Why a track started here. */
  reason: NonNullable<TrackStep['started']> | null;
  /** The tracked position stored (absent where the estimate was stored as it is). */
  position?: { floorId: number; x: number; y: number; lat: number; lng: number; accuracy: number };
}

interface BuiltTracker {
  space: TrackerSpace;
  resetAfterMs: number;
  tracker: Tracker;
}

/**
 * The tracker stage of positions from scans (issue 37): for each device of a batch, in time
 * order, its stored state and the scan give the tracked fix, which replaces the single-scan one
 * everywhere after (history, live picture, fences, streams); the state is kept with the fix.
 * One tracker per building and radio model, built when either changes.
 */
@Injectable()
export class ScanTracking {
  private readonly trackers = new WeakMap<TransmitterIndex, BuiltTracker>();

  /** The refiner of one batch; `outcomes` receives, by the pipeline's index, what became of each fix. */
  refiner(estimated: readonly EstimatedFix[], sites: ReadonlyMap<number, PlacedSite>, outcomes: Map<number, TrackOutcome>): FixRefiner {
    return {
      refine: (fixes: readonly AcceptedFix[], _previous: ReadonlyMap<string, DeviceTrack>, stored: ReadonlyMap<string, DeviceTrackState>) => {
        outcomes.clear();
        const states = new Map<string, DeviceTrackState>();
        const refined = fixes.map((fix) => {
          const scan = estimated[fix.index];
          const placed = scan ? sites.get(scan.building_id) : undefined;
          if (!scan || !placed || !placed.site.tracking.scans) {
            outcomes.set(fix.index, { status: 'off', reason: null });
            return fix;
          }
          const before = states.get(fix.deviceId) ?? stored.get(fix.deviceId);
          // A state of another building starts a new track there (the tracker knows its building).
          const step = this.trackerOf(placed).step(before?.state ?? null, { time: fix.time, readings: scan.readings, raw: scan.estimate }, `${fix.deviceId}@${fix.time}`);
          if (step === null) {
            outcomes.set(fix.index, { status: 'late', reason: null });
            return fix;
          }
          states.set(fix.deviceId, { time: fix.time, state: step.state });
          const reason = step.started;
          const { lat, lng } = toGeoreference(placed.site.frame, step);
          outcomes.set(fix.index, {
            status: reason === null ? 'tracked' : 'started',
            reason,
            position: { floorId: step.floorId, x: step.x, y: step.y, lat, lng, accuracy: step.accuracy },
          });
          return { ...fix, floorId: step.floorId, x: step.x, y: step.y, lat, lng, accuracy: step.accuracy };
        });
        return { fixes: refined, states };
      },
    };
  }

  private trackerOf(placed: PlacedSite): Tracker {
    const resetAfterMs = placed.site.tracking.resetAfterSeconds * 1000;
    const built = this.trackers.get(placed.index);
    if (built && built.space === placed.site.space && built.resetAfterMs === resetAfterMs) return built.tracker;
    const tracker = new Tracker(placed.index, placed.site.space, { resetAfterMs });
    this.trackers.set(placed.index, { space: placed.site.space, resetAfterMs, tracker });
    return tracker;
  }
}
