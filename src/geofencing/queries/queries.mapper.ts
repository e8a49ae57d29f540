import { FenceMatch } from '../engine/floor-index';
import { IndexedFence } from '../engine/batch';
import { ContainsResponseDto, FenceMatchDto } from './queries.dto';

const round = (value: number, digits: number): number => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

function toFenceMatch(match: FenceMatch<IndexedFence>): FenceMatchDto {
  return {
    geofence_id: match.fence.id,
    name: match.fence.name,
    code: match.fence.code,
    classification: match.classification,
    overlap: round(match.overlap, 4),
    // Millimetres: far below any fix's accuracy.
    distance_to_edge_m: round(match.distance, 3) || 0,
  };
}

/** 7.6: the fences holding a point, the surest first (deepest inside, then nearest the edge). */
export function toContainsResponse(matches: FenceMatch<IndexedFence>[]): ContainsResponseDto {
  const sorted = [...matches].sort((a, b) => a.distance - b.distance || (a.fence.id < b.fence.id ? -1 : 1));
  return {
    inside: sorted.filter((match) => match.classification === 'inside').map(toFenceMatch),
    possibly_inside: sorted.filter((match) => match.classification === 'possibly_inside').map(toFenceMatch),
  };
}
