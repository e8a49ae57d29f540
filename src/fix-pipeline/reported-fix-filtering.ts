import { toGeoreference } from '../common/geometry/cartesian';
import type { DeviceTrackState } from '../positions/device-track-states.repository';
import type { AcceptedFix } from '../positions/fix';
import type { FilteringBuilding } from './fix-places';
import type { FixRefiner } from './fix-refiner';
import { ReportedFixFilter } from './reported-fix-filter';

/**
 * The refiner of a batch of reported positions where a building filters them: each fix of such
 * a building (with a position in its metres) is replaced by the filtered one, its device's state
 * kept with the fixes; a fix older than its device's track is stored as reported (late).
 */
export function reportedFixRefiner(filtering: ReadonlyMap<number, FilteringBuilding>): FixRefiner {
  const filters = new Map<number, ReportedFixFilter>();
  const filterOf = (buildingId: number, building: FilteringBuilding) => {
    let filter = filters.get(buildingId);
    if (!filter) filters.set(buildingId, (filter = new ReportedFixFilter({ resetAfterMs: building.resetAfterMs })));
    return filter;
  };
  return {
    refine: (fixes, _previous, stored) => {
      const states = new Map<string, DeviceTrackState>();
      const refined = fixes.map((fix): AcceptedFix => {
        const building = fix.buildingId === null ? undefined : filtering.get(fix.buildingId);
        if (!building || fix.x === null || fix.y === null) return fix;
        const before = states.get(fix.deviceId) ?? stored.get(fix.deviceId);
        const step = filterOf(fix.buildingId!, building).step(before?.state ?? null, {
          time: fix.time,
          buildingId: fix.buildingId!,
          floorId: fix.floorId,
          x: fix.x,
          y: fix.y,
          accuracy: fix.accuracy,
        });
        if (step === null) return fix;
        states.set(fix.deviceId, { time: fix.time, state: step.state });
        const { lat, lng } = toGeoreference(building.frame, step);
        return { ...fix, x: step.x, y: step.y, lat, lng, accuracy: step.accuracy };
      });
      return { fixes: refined, states };
    },
  };
}
