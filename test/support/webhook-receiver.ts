import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedDelivery {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** Which of the receiver's secrets verified it (index), or -1. */
  verifiedWith: number;
  at: number;
}

export type ReceiverMode = 'ok' | 'fail' | 'hang' | 'gone' | { status: number; headers?: Record<string, string> } | ((req: IncomingMessage, res: ServerResponse) => void);

/**
 * A webhook receiver for tests: verifies every delivery with the Standard Webhooks reference
 * library against the secrets it is given, records it, and answers as told.
 */
export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  secrets: string[] = [];
  mode: ReceiverMode = 'ok';
  inFlight = 0;
  maxInFlight = 0;
  private server: Server | null = null;
  private port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      res.on('close', () => this.inFlight--);
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const headers = {
          'webhook-id': String(req.headers['webhook-id']),
          'webhook-timestamp': String(req.headers['webhook-timestamp']),
          'webhook-signature': String(req.headers['webhook-signature']),
        };
        const verifiedWith = this.secrets.findIndex((s) => {
          try {
            new Webhook(s).verify(body, headers);
            return true;
          } catch {
            return false;
          }
        });
        this.received.push({ id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], signature: headers['webhook-signature'], body, verifiedWith, at: Date.now() });
        const mode = this.mode;
        if (typeof mode === 'function') return mode(req, res);
        if (mode === 'ok') return void res.writeHead(200).end('thanks');
        if (mode === 'fail') return void res.writeHead(500).end('receiver broke');
        if (mode === 'gone') return void res.writeHead(410).end();
        if (mode === 'hang') return; // never answers
        res.writeHead(mode.status, mode.headers).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** Stops listening (deliveries then fail with connection refused); start(samePort) brings it back. */
  async stop(): Promise<number> {
    const port = this.port;
    if (!this.server) return port;
    this.server.closeAllConnections();
    await new Promise((r) => this.server!.close(r));
    this.server = null;
    return port;
  }

  byId(id: string): ReceivedDelivery[] {
    return this.received.filter((r) => r.id === id);
  }
}

export async function waitFor<T>(probe: () => T | Promise<T>, accept: (value: T) => boolean, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: T;
  do {
    last = await probe();
    if (accept(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  } while (Date.now() < end);
  throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last).slice(0, 500)}`);
}
