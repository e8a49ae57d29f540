import { connect, Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Parses the first HTTP/1.1 response in what a socket received (Content-Length bodies only). */
export function parseRawResponse(raw: string): RawResponse | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const body = Buffer.from(raw.slice(end + 4), 'latin1');
  if (body.length < length) return undefined;
  return { status: Number(statusLine.split(' ')[1]), headers, body: body.subarray(0, length).toString('utf8') };
}

/**
 * A client that writes raw bytes (a request line, headers, part of a body) and collects
 * whatever the server answers, to test what clients like supertest cannot send.
 */
export class RawClient {
  readonly socket: Socket;
  private received = '';
  readonly closed: Promise<void>;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (this.received += chunk));
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  static open(port: number, localAddress = '127.0.0.1'): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port, localAddress }, () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  write(data: string | Buffer): void {
    if (!this.socket.destroyed) this.socket.write(data);
  }

  get response(): RawResponse | undefined {
    return parseRawResponse(this.received);
  }

  /** Waits for a complete response, or fails after `timeoutMs`. */
  async waitForResponse(timeoutMs = 5_000): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const response = this.response;
      if (response) return response;
      if (this.socket.destroyed && !this.response) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const response = this.response;
    if (!response) throw new Error(`no complete response within ${timeoutMs} ms; received: ${JSON.stringify(this.received.slice(0, 300))}`);
    return response;
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** Sends one whole request and returns the answer. */
export async function rawRequest(port: number, request: string, localAddress?: string): Promise<RawResponse> {
  const client = await RawClient.open(port, localAddress);
  client.write(request);
  try {
    return await client.waitForResponse();
  } finally {
    client.destroy();
  }
}
