import { Injectable } from '@nestjs/common';
import { canSeeBuilding } from '../access/building-scope';
import { Principal } from '../access/principal';
import { Role } from '../access/roles';
import { BuildingFrame, toCartesian } from '../common/geometry/cartesian';
import { AcceptedFix } from '../positions/fix';
import { georeferenceFloorPoint, ItemRejection, ReportedFix } from './fix-batch';
import { FixPlacesRepository } from './fix-places.repository';

/** A building that filters the positions its devices report (`positions` of its tracking settings): its frame and when a silent track starts afresh. */
export interface FilteringBuilding {
  frame: BuildingFrame;
  resetAfterMs: number;
}

/** The fixes whose references hold, and the buildings among theirs that filter reported positions. */
export interface ResolvedFixes {
  accepted: AcceptedFix[];
  filtering: Map<number, FilteringBuilding>;
}

/** The floors and buildings a batch names, each floor with its building's frame. */
interface Places {
  floorBuilding: Map<number, number>;
  frames: Map<number, BuildingFrame>;
  filtering: Map<number, FilteringBuilding>;
}

/**
 * The references of a batch's fixes (buildings, floors, users), each kind read once for the whole
 * batch, and both coordinate systems filled in where a building is known.
 */
@Injectable()
export class FixPlaces {
  constructor(private readonly rows: FixPlacesRepository) {}

  /** The fixes whose references hold, ready to store; the others are added to `rejected` with why. */
  async resolve(principal: Principal, fixes: readonly ReportedFix[], rejected: ItemRejection[]): Promise<ResolvedFixes> {
    const floorIds = new Set<number>();
    const buildingIds = new Set<number>();
    const userIds = new Set<string>();
    for (const fix of fixes) {
      if (fix.floorId !== null) floorIds.add(fix.floorId);
      if (fix.buildingId !== null) buildingIds.add(fix.buildingId);
      if (fix.userId !== null && fix.userId !== principal.userId) userIds.add(fix.userId);
    }
    const [{ floorBuilding, frames, filtering }, knownUsers] = await Promise.all([
      this.places(principal, [...floorIds], [...buildingIds]),
      this.knownUsers(principal, [...userIds]),
    ]);

    const accepted: AcceptedFix[] = [];
    for (const fix of fixes) {
      const reject = (code: ItemRejection['code'], fields: string, message: string) => rejected.push({ index: fix.index, code, fields, message });
      let userId = principal.userId;
      if (fix.userId !== null && fix.userId !== principal.userId) {
        if (principal.role !== Role.AdminOrg) {
          reject('forbidden', 'user_id', 'only an ADMIN_ORG credential may report for another user');
          continue;
        }
        if (!knownUsers.has(fix.userId)) {
          reject('not_found', 'user_id', `user ${fix.userId} not found`);
          continue;
        }
        userId = fix.userId;
      }
      let buildingId = fix.buildingId;
      if (fix.floorId !== null) {
        const floorBuildingId = floorBuilding.get(fix.floorId);
        if (floorBuildingId === undefined || !frames.has(floorBuildingId)) {
          reject('not_found', 'floor_id', `floor ${fix.floorId} not found`);
          continue;
        }
        if (buildingId !== null && floorBuildingId !== buildingId) {
          reject('invalid', 'floor_id', `floor ${fix.floorId} is not in building ${buildingId}`);
          continue;
        }
        buildingId = floorBuildingId;
      }
      const frame = buildingId === null ? undefined : frames.get(buildingId);
      if (buildingId !== null && !frame) {
        reject('not_found', 'building_id', `building ${buildingId} not found`);
        continue;
      }
      let { lat, lng, x, y } = fix;
      if (frame) {
        if (lat !== null && lng !== null) ({ x, y } = toCartesian(frame, { lat, lng }));
        else if (x !== null && y !== null) {
          const converted = georeferenceFloorPoint(fix.index, frame, { x, y });
          if ('code' in converted) {
            rejected.push(converted);
            continue;
          }
          ({ lat, lng } = converted);
        }
      } else {
        x = null;
        y = null;
      }
      accepted.push({
        index: fix.index,
        deviceId: fix.deviceId,
        deviceCode: fix.deviceCode ?? '',
        userId,
        time: fix.time,
        buildingId,
        floorId: fix.floorId,
        lat: lat!,
        lng: lng!,
        x,
        y,
        accuracy: fix.accuracy,
        yaw: fix.yaw,
      });
    }
    return { accepted, filtering };
  }

  /** The users another user's fixes may name: only an ADMIN_ORG credential reports for others. */
  private async knownUsers(principal: Principal, userIds: string[]): Promise<Set<string>> {
    const known = new Set<string>();
    if (userIds.length === 0 || principal.role !== Role.AdminOrg) return known;
    const rows = await this.rows.users(principal.organizationId, userIds);
    for (const row of rows) known.add(String(row.id).toLowerCase());
    return known;
  }

  /**
   * The floors named (with their building) and the buildings named, in one query: each floor's
   * building frame comes with it. Deleted ones, other organizations' and buildings the caller may
   * not see are left out, so their fixes are rejected as not found.
   */
  private async places(principal: Principal, floorIds: number[], buildingIds: number[]): Promise<Places> {
    const floorBuilding = new Map<number, number>();
    const frames = new Map<number, BuildingFrame>();
    const filtering = new Map<number, FilteringBuilding>();
    if (floorIds.length === 0 && buildingIds.length === 0) return { floorBuilding, frames, filtering };
    for (const row of await this.rows.places(principal.organizationId, floorIds, buildingIds)) {
      const buildingId = Number(row.building_id);
      if (!canSeeBuilding(principal, buildingId)) continue;
      const frame = { latitude: Number(row.latitude), longitude: Number(row.longitude), width: Number(row.width), length: Number(row.length), rotation: Number(row.rotation) };
      frames.set(buildingId, frame);
      if (row.filter_positions !== null && Boolean(row.filter_positions)) filtering.set(buildingId, { frame, resetAfterMs: Number(row.reset_after_seconds) * 1000 });
      if (row.floor_id !== null) floorBuilding.set(Number(row.floor_id), buildingId);
    }
    return { floorBuilding, frames, filtering };
  }
}
