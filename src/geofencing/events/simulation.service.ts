import { Injectable } from '@nestjs/common';
import { canSeeBuilding } from '../../access/building-scope';
import { Principal } from '../../access/principal';
import { GeofencesService } from '../../cartography/geofences/geofences.service';
import { ApiError, FieldError } from '../../common/errors/api-error';
import { effectiveRules, GeofenceRules, pickRulePatch, RulePatch, validateRulePatch } from '../engine/rules';
import { onDeadline } from '../engine/visit-state';
import { collectMatches, driveFixes, EvaluableFix, FloorFences, LiveFence, PairState, PendingEvent } from '../engine/batch';
import { FloorFenceCache } from '../queries/floor-fence-cache';
import { eventBody, GeofenceEventBody, newVisitId } from './geofence-event';

export const MAX_SIMULATED_POSITIONS = 10_000;
/**
 * The body `simulate` takes: 800 bytes for each of its 10,000 positions, room for the longest
 * fields (a 64-character device id, user id, full-precision coordinates) even pretty-printed;
 * a typical position is about 130 bytes.
 */
export const SIMULATE_BODY_LIMIT_BYTES = 8 * 1024 * 1024;
const MAX_ERRORS = 100;
/** Fences one simulation may name (they are looked up in one query). */
const MAX_GEOFENCE_IDS = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A simulated event: the 7.3 shape, but nothing was stored, so it has no id and was never detected. */
export type SimulatedEvent = Omit<GeofenceEventBody, 'id' | 'detected_at'> & { id: null; detected_at: null };

const isNumber = (value: unknown, min: number, max: number): value is number => typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;

/**
 * Contract 7.6 `simulate`: the events a recorded track would fire against the live fences
 * (or some of them, with other rules), run through the same state machine from fresh
 * states, with no side effects. Deadlines fire up to the time of the track's last fix.
 */
@Injectable()
export class GeofenceSimulation {
  constructor(
    private readonly floors: FloorFenceCache,
    private readonly geofences: GeofencesService,
  ) {}

  async simulate(principal: Principal, body: unknown): Promise<{ events: SimulatedEvent[] }> {
    const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const errors: FieldError[] = [];
    const fixes = this.readPositions(input.positions, errors);
    let only: Set<string> | null = null;
    if (input.geofence_ids !== undefined && input.geofence_ids !== null) {
      if (!Array.isArray(input.geofence_ids) || input.geofence_ids.length > MAX_GEOFENCE_IDS || input.geofence_ids.some((id) => typeof id !== 'string' || !UUID.test(id))) {
        errors.push({ message: `must be a list of at most ${MAX_GEOFENCE_IDS} geofence ids`, code: 'invalid', fields: 'geofence_ids' });
      } else only = new Set(input.geofence_ids.map((id) => (id as string).toLowerCase()));
    }
    let override: RulePatch = {};
    if (input.rules !== undefined && input.rules !== null) {
      if (typeof input.rules !== 'object' || Array.isArray(input.rules)) errors.push({ message: 'must be an object of rules (7.2)', code: 'invalid', fields: 'rules' });
      else {
        const ruleErrors = validateRulePatch(input.rules as Record<string, unknown>);
        for (const error of ruleErrors) errors.push({ message: error.message, code: 'invalid', fields: `rules.${error.field}`, value: error.value });
        override = pickRulePatch(input.rules as Record<string, unknown>);
      }
    }
    if (errors.length > 0) throw ApiError.validation('The simulation is not valid', errors.slice(0, MAX_ERRORS));
    // An id that is not one of the caller's live fences is refused, not silently left out.
    if (only) await this.geofences.assertAllReferenced(principal, [...only], 'geofence_ids');

    const floorIds = [...new Set(fixes.map((fix) => fix.floorId as number))];
    const indexes = new Map<number, FloorFences>();
    for (const [id, floor] of await this.floors.forFloors(principal.organizationId, floorIds)) if (canSeeBuilding(principal, floor.buildingId)) indexes.set(id, floor);
    fixes.forEach((fix, position) => {
      if (!indexes.has(fix.floorId as number))
        errors.push({ message: `floor ${fix.floorId} not found`, code: 'not_found', fields: `positions[${(fix as IndexedFix).index}].floor_id`, value: fix.floorId });
      void position;
    });
    if (errors.length > 0) throw ApiError.validation('The simulation names unknown floors', errors.slice(0, MAX_ERRORS));

    fixes.sort((a, b) => (a.deviceId === b.deviceId ? a.time - b.time : a.deviceId < b.deviceId ? -1 : 1));
    // An overridden accuracy_factor widens (or narrows) what each fix is near, as the rules it runs.
    const matches = collectMatches(fixes, indexes, { keep: only ? (fence) => only.has(fence.id) : undefined, accuracyFactor: override.accuracy_factor ?? undefined });
    if (matches.fences.length === 0) return { events: [] };
    // Copies: the indexes' fences are shared by every request of this process. (A null in the
    // override, "back to the inherited value", is skipped by effectiveRules.)
    const fences = new Map<string, LiveFence>();
    for (const fence of matches.fences) if (!fences.has(fence.id)) fences.set(fence.id, { ...fence, rules: effectiveRules(fence.rules, override as Partial<GeofenceRules>) });

    const states = new Map<string, PairState>();
    const pending: PendingEvent[] = driveFixes(fixes, states, fences, indexes, matches, newVisitId);
    // What falls due after a device's last fix, up to the end of the track.
    const end = fixes.reduce((latest, fix) => Math.max(latest, fix.time), 0);
    for (const stored of states.values()) {
      const fence = fences.get(stored.fenceId)!;
      for (const event of onDeadline(stored.state, end, { rules: fence.rules, newVisitId: () => '' }).events)
        pending.push({ event, fence, deviceId: stored.deviceId, userId: stored.userId });
    }
    pending.sort((a, b) => (a.deviceId === b.deviceId ? a.event.occurredAt - b.event.occurredAt : a.deviceId < b.deviceId ? -1 : 1));
    const events = pending.map((item, offset) => ({
      ...eventBody(item.event, {
        id: '',
        seq: offset + 1,
        detectedAt: 0,
        organizationId: principal.organizationId,
        fence: item.fence,
        deviceId: item.deviceId,
        userId: item.userId,
      }),
      id: null,
      detected_at: null,
    }));
    return { events };
  }

  /** Each position checked by hand, every bad field named (`positions[i].field`). */
  private readPositions(value: unknown, errors: FieldError[]): IndexedFix[] {
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_SIMULATED_POSITIONS) {
      errors.push({ message: `must be a list of 1 to ${MAX_SIMULATED_POSITIONS} positions`, code: 'invalid', fields: 'positions' });
      return [];
    }
    const fixes: IndexedFix[] = [];
    value.forEach((item: unknown, index) => {
      const bad = (field: string, message: string, got?: unknown) =>
        errors.length < MAX_ERRORS && errors.push({ message, code: 'invalid', fields: `positions[${index}].${field}`, value: got });
      if (typeof item !== 'object' || item === null) {
        bad('', 'must be an object');
        return;
      }
      const p = item as Record<string, unknown>;
      const before = errors.length;
      const deviceId = p.device_id === undefined ? 'simulated' : p.device_id;
      if (typeof deviceId !== 'string' || deviceId.length === 0 || deviceId.length > 64) bad('device_id', 'must be a text of 1 to 64 characters', p.device_id);
      const time = typeof p.time === 'string' && /^\d{4}-\d\d-\d\dT/.test(p.time) ? Date.parse(p.time) : NaN;
      if (Number.isNaN(time)) bad('time', 'must be an ISO 8601 date-time', p.time);
      if (!isNumber(p.lat, -90, 90)) bad('lat', 'must be a latitude', p.lat);
      if (!isNumber(p.lng, -180, 180)) bad('lng', 'must be a longitude', p.lng);
      if (p.accuracy !== undefined && p.accuracy !== null && !isNumber(p.accuracy, 0, 100_000)) bad('accuracy', 'must be metres, 0 or more', p.accuracy);
      if (!Number.isInteger(p.floor_id) || (p.floor_id as number) < 1) bad('floor_id', 'must be a floor id', p.floor_id);
      if (errors.length > before) return;
      fixes.push({
        index,
        deviceId: deviceId as string,
        userId: typeof p.user_id === 'string' ? p.user_id : null,
        time,
        floorId: p.floor_id as number,
        lat: p.lat as number,
        lng: p.lng as number,
        accuracy: (p.accuracy as number | null | undefined) ?? null,
      });
    });
    return fixes;
  }
}

interface IndexedFix extends EvaluableFix {
  index: number;
}
