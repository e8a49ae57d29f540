import { formatAge } from '../freshness';

/** A gateway as `GET /infrastructure/gateways` lists it (the fields the map uses). */
export interface GatewayItem {
  id: number;
  floor_id: number;
  lat: number;
  lng: number;
  hardware_id: string;
  name: string;
  format: string;
}

/** A gateway's health as `GET /infrastructure/gateways/{id}/health` answers it (the fields the map uses). */
export interface GatewayHealth {
  silent: boolean;
  last_seen_at: string | null;
  messages_per_second: number;
  tags_heard: number;
  messages_not_understood: number;
  last_reason: string | null;
  last_limit: { name: string; at: string } | null;
}

/** How a gateway is drawn and listed: silent (no message for 5 minutes), heard, or never heard yet. */
export interface GatewayView {
  id: number;
  state: 'silent' | 'heard' | 'never';
  title: string;
  /** What its health says, a line each. */
  lines: string[];
}

/** A gateway and its health (null: not read), as the floor map shows it at `now`. */
export function gatewayView(gateway: GatewayItem, health: GatewayHealth | null, now: number): GatewayView {
  const title = gateway.name.trim() !== '' ? `${gateway.name} (${gateway.hardware_id})` : gateway.hardware_id;
  if (!health) return { id: gateway.id, state: 'never', title, lines: [`${gateway.format}; health not read`] };
  const seen = health.last_seen_at === null ? null : Date.parse(health.last_seen_at);
  const state = health.silent ? 'silent' : seen === null ? 'never' : 'heard';
  const lines = [
    seen === null ? `${gateway.format}; never heard` : `${gateway.format}; last heard ${formatAge(Math.max(0, now - seen))} ago`,
    `${health.messages_per_second.toFixed(health.messages_per_second < 10 ? 1 : 0)} messages/s, ${health.tags_heard} ${health.tags_heard === 1 ? 'tag' : 'tags'} heard`,
  ];
  if (health.silent) lines.unshift('Silent: no message for 5 minutes');
  if (health.messages_not_understood > 0) lines.push(`${health.messages_not_understood} not understood${health.last_reason ? `: ${health.last_reason}` : ''}`);
  if (health.last_limit) lines.push(`over its ${health.last_limit.name.replace(/_/g, ' ')} limit at ${new Date(health.last_limit.at).toLocaleTimeString()}`);
  return { id: gateway.id, state, title, lines };
}
