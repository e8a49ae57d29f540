import { Injectable } from '@nestjs/common';
import { canSeeBuilding } from '../../access/building-scope';
import { Principal } from '../../access/principal';
import { ApiError, FieldError } from '../../common/errors/api-error';
import { MAX_INTEGER_ID } from '../../common/http/params';
import { FloorFences } from '../engine/batch';
import { FloorFenceCache } from './floor-fence-cache';
import { toContainsResponse } from './queries.mapper';
import { ContainsQuery, ContainsResponseDto, EvaluateResponseDto, MAX_ACCURACY_M, MAX_EVALUATE_POINTS } from './queries.dto';

interface EvaluatePoint {
  lat: number;
  lng: number;
  floor_id: number;
  accuracy: number | null;
}

/** Stateless queries of 7.6: which live fences of a floor hold a point. Nothing is written. */
@Injectable()
export class GeofencingQueriesService {
  constructor(private readonly floors: FloorFenceCache) {}

  async contains(principal: Principal, query: ContainsQuery): Promise<ContainsResponseDto> {
    const floor = (await this.visibleFloors(principal, [query.floor_id])).get(query.floor_id);
    if (!floor) throw ApiError.notFound('Floor', query.floor_id);
    return toContainsResponse(floor.index.match(query.lat, query.lng, query.accuracy ?? null));
  }

  async evaluate(principal: Principal, body: unknown): Promise<EvaluateResponseDto> {
    const points = checkedPoints(body);
    const floors = await this.visibleFloors(
      principal,
      points.map((point) => point.floor_id),
    );
    const unknown = points.flatMap((point, position): FieldError[] =>
      floors.has(point.floor_id) ? [] : [{ message: 'no such floor', code: 'not_found', fields: `points[${position}].floor_id`, value: point.floor_id }],
    );
    if (unknown.length > 0) throw ApiError.validation('Some points name a floor that is not of your organization', unknown);
    return { results: points.map((point) => toContainsResponse(floors.get(point.floor_id)!.index.match(point.lat, point.lng, point.accuracy))) };
  }

  /** The caller's floors among these, without those of buildings it may not see. */
  private async visibleFloors(principal: Principal, floorIds: number[]): Promise<Map<number, FloorFences>> {
    const floors = await this.floors.forFloors(principal.organizationId, floorIds);
    for (const [floorId, floor] of floors) if (!canSeeBuilding(principal, floor.buildingId)) floors.delete(floorId);
    return floors;
  }
}

const isNumberIn = (value: unknown, min: number, max: number): value is number => typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;

/**
 * The points of an evaluate body, each field checked by hand (a thousand points through
 * class-validator would cost more than evaluating them); 422 naming every bad field.
 */
function checkedPoints(body: unknown): EvaluatePoint[] {
  const invalid = (message: string, fields: string, value?: unknown): FieldError => ({
    message,
    code: 'invalid',
    fields,
    ...(value !== undefined && typeof value !== 'object' && { value }),
  });
  const points = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { points?: unknown }).points : undefined;
  if (!Array.isArray(points) || points.length === 0 || points.length > MAX_EVALUATE_POINTS) {
    throw ApiError.validation('The request is not valid', [invalid(`must be an array of 1 to ${MAX_EVALUATE_POINTS} points`, 'points')]);
  }
  const errors: FieldError[] = [];
  const checked: EvaluatePoint[] = [];
  for (let position = 0; position < points.length; position += 1) {
    const point: unknown = points[position];
    const path = `points[${position}]`;
    if (point === null || typeof point !== 'object' || Array.isArray(point)) {
      errors.push(invalid('must be an object with lat, lng and floor_id', path));
      continue;
    }
    const { lat, lng, floor_id: floorId, accuracy } = point as Record<string, unknown>;
    if (!isNumberIn(lat, -90, 90)) errors.push(invalid('must be a number from -90 to 90', `${path}.lat`, lat));
    if (!isNumberIn(lng, -180, 180)) errors.push(invalid('must be a number from -180 to 180', `${path}.lng`, lng));
    if (!(Number.isInteger(floorId) && isNumberIn(floorId, 1, MAX_INTEGER_ID))) errors.push(invalid('must be a floor id', `${path}.floor_id`, floorId));
    if (accuracy !== undefined && accuracy !== null && !isNumberIn(accuracy, 0, MAX_ACCURACY_M)) {
      errors.push(invalid(`must be a number of metres from 0 to ${MAX_ACCURACY_M}`, `${path}.accuracy`, accuracy));
    }
    checked.push({ lat: lat as number, lng: lng as number, floor_id: floorId as number, accuracy: (accuracy as number | null | undefined) ?? null });
  }
  if (errors.length > 0) throw ApiError.validation('The request is not valid', errors.slice(0, 100));
  return checked;
}
