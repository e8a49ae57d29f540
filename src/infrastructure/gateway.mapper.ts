import { formatOptionalTimestamp, formatTimestamp } from '../common/time/timestamps';
import { GatewayHealthRow, RATE_WINDOW_MS } from './gateway-health.repository';
import { Gateway } from './gateway.entity';
import { GatewayHealthDto, GatewayResponseDto } from './gateways.dto';

/** A gateway without a message for this long is silent (its health, the metric and the alert rule). */
export const GATEWAY_SILENT_AFTER_MS = 5 * 60_000;

export function toGatewayResponse(row: Gateway): GatewayResponseDto {
  return {
    id: row.id,
    building_id: row.buildingId,
    floor_id: row.floorId,
    lat: row.latitude,
    lng: row.longitude,
    x: row.x,
    y: row.y,
    height_m: row.heightM,
    hardware_id: row.hardwareId,
    name: row.name,
    format: row.format,
    created_at: formatTimestamp(row.createdAt),
    updated_at: formatTimestamp(row.updatedAt),
  };
}

const at = (ms: number | string | null | undefined): string | null => (ms === null || ms === undefined ? null : formatOptionalTimestamp(new Date(Number(ms))));

/**
 * Messages per second over about the last minute: the current minute's count plus the part of the
 * previous minute's that the sliding minute still covers (the estimate of rate limiters).
 */
export function messagesPerSecond(health: Pick<GatewayHealthRow, 'window_start_ms' | 'window_messages' | 'previous_window_messages'>, now: number): number {
  const elapsed = now - Number(health.window_start_ms);
  if (elapsed < 0 || elapsed >= 2 * RATE_WINDOW_MS) return 0;
  const current = Number(health.window_messages);
  const previous = Number(health.previous_window_messages);
  const count = elapsed >= RATE_WINDOW_MS ? current * (1 - (elapsed - RATE_WINDOW_MS) / RATE_WINDOW_MS) : previous * (1 - elapsed / RATE_WINDOW_MS) + current;
  return Math.round((count / (RATE_WINDOW_MS / 1000)) * 1000) / 1000;
}

export function toGatewayHealth(gateway: Gateway, health: GatewayHealthRow | null, tagsHeard: number, now: number): GatewayHealthDto {
  const lastSeen = health === null ? null : Number(health.last_seen_ms);
  const since = lastSeen ?? gateway.createdAt.getTime();
  return {
    gateway_id: gateway.id,
    hardware_id: gateway.hardwareId,
    last_seen_at: at(lastSeen),
    silent: now - since >= GATEWAY_SILENT_AFTER_MS,
    messages_per_second: health === null ? 0 : messagesPerSecond(health, now),
    tags_heard: tagsHeard,
    messages: Number(health?.messages ?? 0),
    messages_not_understood: Number(health?.messages_not_understood ?? 0),
    records_not_understood: Number(health?.records_not_understood ?? 0),
    last_reason: health?.last_reason ?? null,
    last_reason_at: at(health?.last_reason_ms),
    last_limit: health?.last_limit ? { name: health.last_limit, at: at(health.last_limit_ms)! } : null,
    observations_stored: Number(health?.observations_stored ?? 0),
    observations_duplicate: Number(health?.observations_duplicate ?? 0),
    unknown_advertisers: Number(health?.unknown_advertisers ?? 0),
  };
}
