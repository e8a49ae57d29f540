import { describe, expect, it } from 'vitest';
import { assertChannel, reconnectDelay, serializePayload } from './notification-bus';

describe('notifications helpers', () => {
  it('accepts lower-case identifiers as channels and nothing that would need quoting', () => {
    expect(() => assertChannel('credential_revocations')).not.toThrow();
    for (const bad of ['', 'Upper', '1st', 'a-b', 'a"; DROP TABLE x; --', 'x'.repeat(64)]) expect(() => assertChannel(bad)).toThrow();
  });

  it('serializes payloads as JSON within PostgreSQL NOTIFY limits', () => {
    expect(serializePayload({ user: 'u1' })).toBe('{"user":"u1"}');
    expect(serializePayload(undefined)).toBe('null');
    expect(() => serializePayload('x'.repeat(8000))).toThrow(/7900 bytes/);
  });

  it('backs off exponentially with jitter, capped at 5 s', () => {
    expect(reconnectDelay(0, () => 0)).toBe(25);
    expect(reconnectDelay(0, () => 1)).toBe(50);
    expect(reconnectDelay(3, () => 1)).toBe(400);
    expect(reconnectDelay(30, () => 1)).toBe(5000);
    expect(reconnectDelay(30, () => 0)).toBe(2500);
  });
});
