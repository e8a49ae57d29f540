import { createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of the test database, to make it hang or go away while
 * the app runs.
 */
export class TcpProxy {
  private mode: 'pass' | 'hang' | 'refuse' = 'pass';
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** Connections stay open but no byte goes through any more, old or new: a hung database. */
  hang(): void {
    this.mode = 'hang';
    for (const socket of this.sockets) socket.pause();
  }

  /** Every connection is cut and new ones are reset: a database that went away. */
  refuse(): void {
    this.mode = 'refuse';
    for (const socket of this.sockets) socket.destroy();
  }

  /** The database is back: new connections go through again (connections cut while it was away stay cut). */
  pass(): void {
    this.mode = 'pass';
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private accept(client: Socket): void {
    this.sockets.add(client);
    client.on('close', () => this.sockets.delete(client));
    client.on('error', () => undefined);
    if (this.mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    if (this.mode === 'hang') return;
    const upstream = createConnection({ host: this.targetHost, port: this.targetPort });
    this.sockets.add(upstream);
    upstream.on('close', () => this.sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk) => {
        if (this.mode === 'pass') to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
  }
}
