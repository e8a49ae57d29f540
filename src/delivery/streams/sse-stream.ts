import type { FastifyReply } from 'fastify';
import type { ServerResponse } from 'node:http';

/** What a live stream carries; `cartograph_streams_open` has one series for each, 0 when none is open. */
export const STREAM_KINDS = ['positions', 'events'] as const;
export type StreamKind = (typeof STREAM_KINDS)[number];

/** Why the server ended a stream; sent to the client as the last frame (`event: close`). */
export const STREAM_END_REASONS = ['shutdown', 'credential_revoked', 'too_slow'] as const;
export type StreamEndReason = (typeof STREAM_END_REASONS)[number];

export interface SseStreamOptions {
  heartbeatMs: number;
  /** Bytes a client may leave unread before it is dropped. */
  maxBufferedBytes: number;
  /** How long a writer waits for a client to read its backlog (see `writable`) before dropping it. */
  drainTimeoutMs?: number;
}

const DRAIN_TIMEOUT_MS = 30_000;

/** How long an ended stream's last bytes may take to leave before the socket is destroyed. */
const END_GRACE_MS = 2000;
export const SSE_RETRY_MS = 3000;

/** One frame of the text/event-stream format; `data` is a single line of JSON. */
export function sseFrame(id: string | null, event: string, data: string): string {
  return `${id === null ? '' : `id: ${id}\n`}event: ${event}\ndata: ${data}\n\n`;
}

/**
 * A Server-Sent Events response written straight to the socket. Nest's `@Sse()` hands an
 * Observable to the adapter, which leaves no say over when headers go out (a 429 must be an
 * ordinary JSON answer), over a slow client's buffer, or over ending streams before the
 * server closes; so the reply is hijacked and the frames written here.
 *
 * A client that leaves more than `maxBufferedBytes` unread is sent `event: close` with
 * `too_slow` and dropped: nothing is buffered without bound. Writers of many frames await
 * `writable()` so that only a client that stops reading gets there.
 */
export class SseStream {
  private readonly raw: ServerResponse;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly closeHandlers: Array<() => void> = [];
  private ended = false;
  /** Set when the server ended the stream (not the client). */
  endReason: StreamEndReason | undefined;

  constructor(
    reply: FastifyReply,
    private readonly options: SseStreamOptions,
  ) {
    this.raw = reply.raw;
    // Headers set on the reply so far (CORS, request id, security headers) go out too.
    const headers: Record<string, string | string[] | number> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value as string;
    reply.hijack();
    delete headers['content-length'];
    this.raw.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    this.raw.write(`retry: ${SSE_RETRY_MS}\n\n`);
    this.heartbeat = setInterval(() => this.write(': ping\n\n'), options.heartbeatMs);
    this.heartbeat.unref();
    this.raw.on('close', () => this.finish());
  }

  get open(): boolean {
    return !this.ended;
  }

  onClose(handler: () => void): void {
    if (this.ended) handler();
    else this.closeHandlers.push(handler);
  }

  /**
   * Resolves when the client has read enough of what was written to take more (true), or
   * false once the stream is over. A writer with many frames (a replay) awaits this between
   * frames, so a long replay follows the client's pace instead of filling memory; a client
   * that reads nothing for `drainTimeoutMs` is dropped as too slow.
   */
  writable(): Promise<boolean> {
    if (this.ended) return Promise.resolve(false);
    // 'drain' comes only after a write the socket did not take whole (writableNeedDrain).
    if (!this.raw.writableNeedDrain) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.raw.off('drain', done);
        this.raw.off('close', done);
        resolve(!this.ended);
      };
      const timer = setTimeout(() => {
        this.end('too_slow');
        done();
      }, this.options.drainTimeoutMs ?? DRAIN_TIMEOUT_MS);
      timer.unref();
      this.raw.on('drain', done);
      this.raw.on('close', done);
    });
  }

  send(id: string | null, event: string, data: string): boolean {
    return this.write(sseFrame(id, event, data));
  }

  /** Tells the client why, then ends the response; a client that does not read is cut off. */
  end(reason: StreamEndReason): void {
    if (this.ended) return;
    this.endReason = reason;
    this.raw.write(sseFrame(null, 'close', JSON.stringify({ reason })));
    this.raw.end();
    const timer = setTimeout(() => this.raw.destroy(), END_GRACE_MS);
    timer.unref();
    this.finish();
  }

  private write(text: string): boolean {
    if (this.ended) return false;
    this.raw.write(text);
    if (this.raw.writableLength > this.options.maxBufferedBytes) {
      this.end('too_slow');
      return false;
    }
    return true;
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.heartbeat);
    for (const handler of this.closeHandlers.splice(0)) handler();
  }
}
