import type { AddressInfo } from 'node:net';
import type { TestApp } from './test-app';

/**
 * Makes a test app listen on a real loopback port (the official client talks HTTP through
 * axios, not through supertest) and returns the `domain` to give the client.
 * Call it before any `t.http` request: supertest would otherwise start its own listener.
 */
export async function listenOnLoopback(t: TestApp): Promise<string> {
  await t.app.listen(0, '127.0.0.1');
  const address = t.app.getHttpServer().address() as AddressInfo | string | null;
  if (!address || typeof address === 'string') throw new Error(`the test app is not listening on a TCP port: ${String(address)}`);
  return `http://127.0.0.1:${address.port}`;
}

export interface LoggedRequest {
  method: string;
  route: string | null;
  status: number;
}

/** The requests the app logged from index `from` on, reduced to what the tests compare. */
export function loggedRequestsSince(t: TestApp, from: number): LoggedRequest[] {
  return t.requestLogs.slice(from).map((line) => ({
    method: line.method as string,
    route: (line.route as string | null) ?? null,
    status: line.status as number,
  }));
}
