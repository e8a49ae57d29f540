import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openLiveStream, StreamStatus } from './live-stream';

/** An EventSource stand-in: records its URL and lets the test play the server's part. */
class FakeEventSource {
  static opened: FakeEventSource[] = [];
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  private readonly listeners = new Map<string, Array<(e: { data: string; lastEventId: string }) => void>>();

  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }

  addEventListener(type: string, listener: (e: { data: string; lastEventId: string }) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close(): void {
    this.closed = true;
  }

  emit(type: string, data: unknown, lastEventId = ''): void {
    for (const listener of this.listeners.get(type) ?? []) listener({ data: JSON.stringify(data), lastEventId });
  }

  get params(): URLSearchParams {
    return new URL(this.url, 'http://dashboard.test').searchParams;
  }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('live stream with tickets', () => {
  let tickets: number;
  let ticketStatus: number;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    FakeEventSource.opened = [];
    tickets = 0;
    ticketStatus = 201;
    vi.stubGlobal('EventSource', FakeEventSource);
    vi.stubGlobal('document', { cookie: 'cartograph_csrf=token-1' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        expect(url).toBe('/api/v1/auth/stream_tickets');
        expect(init.method).toBe('POST');
        expect((init.headers as Record<string, string>)['X-CSRF-Token']).toBe('token-1');
        tickets++;
        const body = ticketStatus === 201 ? { ticket: `cgs_${tickets}`, expires_in: 60 } : { code: 'unauthorized', message: 'Log in again' };
        return new Response(JSON.stringify(body), { status: ticketStatus, headers: { 'Content-Type': 'application/json' } });
      }),
    );
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  async function settle(): Promise<void> {
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(0);
      await vi.waitFor(flush);
    }
  }

  it('opens with a fresh ticket and the filters, and hands over each event with its id', async () => {
    const received: Array<[string, unknown, string]> = [];
    const statuses: StreamStatus[] = [];
    const stream = openLiveStream({
      path: '/geofencing/events/stream',
      params: { building_ids: 7, types: ['geofence.enter', 'geofence.exit'] },
      events: ['geofence.enter'],
      onEvent: (type, data, id) => received.push([type, data, id]),
      onStatus: (s) => statuses.push(s),
    });
    await settle();
    const [source] = FakeEventSource.opened;
    expect(source.url.startsWith('/api/v1/geofencing/events/stream?')).toBe(true);
    expect(source.params.get('ticket')).toBe('cgs_1');
    expect(source.params.get('building_ids')).toBe('7');
    expect(source.params.get('types')).toBe('geofence.enter,geofence.exit');
    expect(source.params.has('after')).toBe(false);
    source.onopen!();
    source.emit('geofence.enter', { seq: 41 }, '41');
    expect(received).toEqual([['geofence.enter', { seq: 41 }, '41']]);
    expect(stream.lastEventId).toBe('41');
    expect(statuses).toEqual(['connecting', 'live']);
    stream.close();
    expect(source.closed).toBe(true);
  });

  it('reconnects after a drop with a new ticket, resuming after the last id received', async () => {
    const statuses: StreamStatus[] = [];
    const stream = openLiveStream({ path: '/realtime/stream', events: ['position'], after: '100', onEvent: () => {}, onStatus: (s) => statuses.push(s) });
    await settle();
    const first = FakeEventSource.opened[0];
    expect(first.params.get('after')).toBe('100');
    first.onopen!();
    first.emit('position', { id: 'a' }, '250');
    first.onerror!();
    // The browser's own retry would present the spent ticket: the stream closes it and waits.
    expect(first.closed).toBe(true);
    expect(statuses.at(-1)).toBe('reconnecting');
    expect(FakeEventSource.opened).toHaveLength(1);
    vi.advanceTimersByTime(1000);
    await settle();
    const second = FakeEventSource.opened[1];
    expect(second.params.get('ticket')).toBe('cgs_2');
    expect(second.params.get('after')).toBe('250');

    // The server ending the stream (event: close) is a reconnect too, after a longer wait while failures last.
    second.emit('close', { reason: 'shutdown' });
    expect(second.closed).toBe(true);
    vi.advanceTimersByTime(1000);
    await settle();
    expect(FakeEventSource.opened).toHaveLength(2);
    vi.advanceTimersByTime(1000);
    await settle();
    expect(FakeEventSource.opened).toHaveLength(3);
    expect(FakeEventSource.opened[2].params.get('ticket')).toBe('cgs_3');
    stream.close();
    vi.advanceTimersByTime(60_000);
    await settle();
    expect(FakeEventSource.opened).toHaveLength(3);
  });

  it('stops when the ticket is refused (the session ended): no retry loop', async () => {
    ticketStatus = 401;
    const statuses: StreamStatus[] = [];
    openLiveStream({ path: '/realtime/stream', events: ['position'], onEvent: () => {}, onStatus: (s) => statuses.push(s) });
    await settle();
    expect(statuses).toEqual(['connecting', 'stopped']);
    vi.advanceTimersByTime(60_000);
    await settle();
    expect(tickets).toBe(1);
    expect(FakeEventSource.opened).toHaveLength(0);
  });
});
