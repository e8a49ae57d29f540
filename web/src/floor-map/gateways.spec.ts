import { describe, expect, it } from 'vitest';
import { type GatewayHealth, type GatewayItem, gatewayView } from './gateways';

const gateway: GatewayItem = { id: 7, floor_id: 1, lat: 42.88, lng: -8.54, hardware_id: 'aaccee001122', name: 'Corridor', format: 'ruuvi' };
const health = (over: Partial<GatewayHealth> = {}): GatewayHealth => ({
  silent: false,
  last_seen_at: '2026-12-06T10:00:00.000Z',
  messages_per_second: 0.4,
  tags_heard: 3,
  messages_not_understood: 0,
  last_reason: null,
  last_limit: null,
  ...over,
});
const NOW = Date.parse('2026-12-06T10:00:12.000Z');

describe('gatewayView', () => {
  it('a gateway heard: its age, rate and tags', () => {
    expect(gatewayView(gateway, health(), NOW)).toEqual({
      id: 7,
      state: 'heard',
      title: 'Corridor (aaccee001122)',
      lines: ['ruuvi; last heard 12 s ago', '0.4 messages/s, 3 tags heard'],
    });
  });

  it('a silent one says so first; what was not understood and the last limit follow', () => {
    const view = gatewayView(
      gateway,
      health({ silent: true, messages_not_understood: 2, last_reason: 'payload is not JSON', last_limit: { name: 'message_size', at: '2026-12-06T09:00:00.000Z' } }),
      NOW,
    );
    expect(view.state).toBe('silent');
    expect(view.lines[0]).toBe('Silent: no message for 5 minutes');
    expect(view.lines).toContain('2 not understood: payload is not JSON');
    expect(view.lines.some((line) => line.startsWith('over its message size limit at '))).toBe(true);
  });

  it('never heard (silent only once 5 minutes have passed since it was registered), and a health not read', () => {
    expect(gatewayView(gateway, health({ last_seen_at: null, tags_heard: 1 }), NOW)).toMatchObject({
      state: 'never',
      lines: ['ruuvi; never heard', '0.4 messages/s, 1 tag heard'],
    });
    expect(gatewayView(gateway, health({ last_seen_at: null, silent: true }), NOW).state).toBe('silent');
    expect(gatewayView({ ...gateway, name: ' ' }, null, NOW)).toEqual({ id: 7, state: 'never', title: 'aaccee001122', lines: ['ruuvi; health not read'] });
  });
});
