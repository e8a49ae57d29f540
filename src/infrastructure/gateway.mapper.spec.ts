import { describe, expect, it } from 'vitest';
import { messagesPerSecond } from './gateway.mapper';

describe('messagesPerSecond', () => {
  const minute = 60_000;
  const start = 10 * minute;

  it('counts the current minute and the part of the last one the sliding minute still covers', () => {
    expect(messagesPerSecond({ window_start_ms: start, window_messages: 60, previous_window_messages: 0 }, start + 30_000)).toBe(1);
    expect(messagesPerSecond({ window_start_ms: start, window_messages: 30, previous_window_messages: 60 }, start + 30_000)).toBe(1);
    expect(messagesPerSecond({ window_start_ms: String(start), window_messages: '0', previous_window_messages: '120' }, start)).toBe(2);
  });

  it('fades a minute that ended, and is 0 two minutes on (or for a clock behind the window)', () => {
    expect(messagesPerSecond({ window_start_ms: start, window_messages: 60, previous_window_messages: 0 }, start + minute + 30_000)).toBe(0.5);
    expect(messagesPerSecond({ window_start_ms: start, window_messages: 60, previous_window_messages: 0 }, start + 2 * minute)).toBe(0);
    expect(messagesPerSecond({ window_start_ms: start, window_messages: 60, previous_window_messages: 0 }, start - 1)).toBe(0);
  });
});
