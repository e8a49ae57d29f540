import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { SseStream, sseFrame } from './sse-stream';

/** A reply whose socket never drains: every write stays buffered. */
function stuckReply() {
  const raw = Object.assign(new EventEmitter(), {
    written: [] as string[],
    headers: {} as Record<string, unknown>,
    status: 0,
    writableLength: 0,
    ended: false,
    destroyed: false,
    writeHead(status: number, headers: Record<string, unknown>) {
      raw.status = status;
      raw.headers = headers;
    },
    write(text: string) {
      raw.written.push(text);
      raw.writableLength += Buffer.byteLength(text);
      return true;
    },
    end() {
      raw.ended = true;
    },
    destroy() {
      raw.destroyed = true;
    },
  });
  // As a socket says once a write was not taken whole (here: past 64 KiB).
  Object.defineProperty(raw, 'writableNeedDrain', { get: () => raw.writableLength > 64 * 1024 });
  const reply = { raw, hijacked: false, getHeaders: () => ({ 'x-request-id': 'r1', 'content-length': '5' }), hijack: () => (reply.hijacked = true) };
  return reply;
}

describe('sseFrame', () => {
  it('writes id, event and data lines and a blank line', () => {
    expect(sseFrame('12', 'position', '{"a":1}')).toBe('id: 12\nevent: position\ndata: {"a":1}\n\n');
    expect(sseFrame(null, 'close', '{}')).toBe('event: close\ndata: {}\n\n');
  });
});

describe('SseStream', () => {
  it("hijacks the reply, sends the stream headers (keeping the reply's own) and retry first", () => {
    const reply = stuckReply();
    const stream = new SseStream(reply as never, { heartbeatMs: 60_000, maxBufferedBytes: 1 << 20 });
    expect(reply.hijacked).toBe(true);
    expect(reply.raw.status).toBe(200);
    expect(reply.raw.headers).toMatchObject({ 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no', 'x-request-id': 'r1' });
    expect(reply.raw.headers['content-length']).toBeUndefined();
    expect(reply.raw.written[0]).toBe('retry: 3000\n\n');
    stream.end('shutdown');
  });

  it('pings on the interval', () => {
    vi.useFakeTimers();
    try {
      const reply = stuckReply();
      const stream = new SseStream(reply as never, { heartbeatMs: 15_000, maxBufferedBytes: 1 << 20 });
      vi.advanceTimersByTime(30_000);
      expect(reply.raw.written.filter((text) => text === ': ping\n\n')).toHaveLength(2);
      stream.end('shutdown');
      vi.advanceTimersByTime(30_000);
      expect(reply.raw.written.filter((text) => text === ': ping\n\n')).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops a client that leaves more than the bound unread, telling it why, and cuts the socket if it still does not read', () => {
    vi.useFakeTimers();
    try {
      const reply = stuckReply();
      const stream = new SseStream(reply as never, { heartbeatMs: 60_000, maxBufferedBytes: 1024 });
      const closed = vi.fn();
      stream.onClose(closed);
      let sent = 0;
      while (stream.send(String(sent), 'position', 'x'.repeat(100))) sent++;
      expect(sent).toBeLessThan(11);
      expect(stream.open).toBe(false);
      expect(stream.endReason).toBe('too_slow');
      expect(reply.raw.written.at(-1)).toBe('event: close\ndata: {"reason":"too_slow"}\n\n');
      expect(reply.raw.ended).toBe(true);
      expect(closed).toHaveBeenCalledOnce();
      expect(stream.send('x', 'position', '{}')).toBe(false);
      vi.advanceTimersByTime(5000);
      expect(reply.raw.destroyed).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a writer waits for the client to read its backlog, and a client that never does is dropped', async () => {
    vi.useFakeTimers();
    try {
      const reply = stuckReply();
      const stream = new SseStream(reply as never, { heartbeatMs: 60_000, maxBufferedBytes: 1 << 20, drainTimeoutMs: 1000 });
      expect(await stream.writable()).toBe(true);
      stream.send('1', 'position', 'x'.repeat(70 * 1024));
      let answer: boolean | undefined;
      void stream.writable().then((value) => (answer = value));
      await vi.advanceTimersByTimeAsync(500);
      expect(answer).toBeUndefined();
      // The client reads: the writer goes on.
      reply.raw.writableLength = 0;
      reply.raw.emit('drain');
      await vi.advanceTimersByTimeAsync(0);
      expect(answer).toBe(true);
      stream.send('2', 'position', 'x'.repeat(70 * 1024));
      answer = undefined;
      void stream.writable().then((value) => (answer = value));
      await vi.advanceTimersByTimeAsync(1000);
      expect(answer).toBe(false);
      expect(stream.endReason).toBe('too_slow');
    } finally {
      vi.useRealTimers();
    }
  });

  it('a client hanging up closes the stream', () => {
    const reply = stuckReply();
    const stream = new SseStream(reply as never, { heartbeatMs: 60_000, maxBufferedBytes: 1 << 20 });
    const closed = vi.fn();
    stream.onClose(closed);
    reply.raw.emit('close');
    expect(stream.open).toBe(false);
    expect(stream.endReason).toBeUndefined();
    expect(closed).toHaveBeenCalledOnce();
  });
});
