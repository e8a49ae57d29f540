import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One block of a text/event-stream: fields as sent (a comment-only block has `comments` only). */
export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  retry?: number;
  comments: string[];
}

/** Splits text/event-stream bytes into blocks; keeps the unfinished tail for the next chunk. */
export class SseParser {
  private buffer = '';

  push(chunk: string): SseFrame[] {
    this.buffer += chunk;
    const frames: SseFrame[] = [];
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const frame: SseFrame = { comments: [] };
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) {
          frame.comments.push(line.slice(1).trim());
          continue;
        }
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') frame.id = value;
        else if (field === 'event') frame.event = value;
        else if (field === 'data') frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
        else if (field === 'retry') frame.retry = Number(value);
      }
      frames.push(frame);
    }
    return frames;
  }
}

/** Makes sure the app's server listens on a port (supertest then reuses it) and returns it. */
export async function listeningPort(server: Server): Promise<number> {
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

/**
 * A Server-Sent Events client for the tests, like a browser's EventSource without the
 * reconnection: every block it received, in order, the last `id:` seen, and whether the server ended it.
 */
export class SseClient {
  readonly frames: SseFrame[] = [];
  lastEventId: string | undefined;
  ended = false;
  /** The answer's body when it is not a stream (an error in the contract's shape). */
  body: unknown;
  private readonly waiters = new Set<() => void>();

  private constructor(
    readonly status: number,
    readonly headers: IncomingHttpHeaders,
    private readonly response: IncomingMessage,
  ) {}

  static open(server: Server, path: string, headers: Record<string, string> = {}): Promise<SseClient> {
    return listeningPort(server).then((port) => SseClient.openOnPort(port, path, headers));
  }

  /** A stream from a server on 127.0.0.1:`port` (a server process of the test). */
  static openOnPort(port: number, path: string, headers: Record<string, string> = {}): Promise<SseClient> {
    return new Promise<SseClient>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port, path, headers: { Accept: 'text/event-stream', ...headers } }, (response) => {
        const client = new SseClient(response.statusCode ?? 0, response.headers, response);
        response.setEncoding('utf8');
        if (!String(response.headers['content-type']).startsWith('text/event-stream')) {
          let text = '';
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => {
            client.body = text === '' ? undefined : JSON.parse(text);
            client.ended = true;
            resolve(client);
          });
          return;
        }
        const parser = new SseParser();
        response.on('data', (chunk: string) => {
          for (const frame of parser.push(chunk)) {
            client.frames.push(frame);
            if (frame.id !== undefined) client.lastEventId = frame.id;
          }
          client.notify();
        });
        const finish = () => {
          client.ended = true;
          client.notify();
        };
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
        resolve(client);
      });
      request.on('error', reject);
      request.end();
    });
  }

  /** The `data` of every frame of this event type so far, parsed. */
  events<T = unknown>(event: string): T[] {
    return this.frames.filter((frame) => frame.event === event).map((frame) => JSON.parse(frame.data ?? 'null') as T);
  }

  /** Waits until `condition` holds (checked on every frame and at the end of the stream). */
  async until(condition: (client: SseClient) => boolean, timeoutMs = 5000, what = 'the expected frames'): Promise<void> {
    if (condition(this)) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}; got ${JSON.stringify(this.frames)}${this.ended ? ' (ended)' : ''}`));
      }, timeoutMs);
      const check = () => {
        if (!condition(this)) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }

  /** Hangs up, as a browser closing the page. */
  close(): void {
    this.response.destroy();
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
