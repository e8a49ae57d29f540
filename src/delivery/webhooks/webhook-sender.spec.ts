import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryAgents, sendWebhook } from './webhook-sender';

describe('sendWebhook', () => {
  let server: Server;
  let base: string;
  let connections = 0;
  const seen: Array<{ headers: Record<string, unknown>; body: string }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        if (req.url === '/ok') return void res.writeHead(204).end();
        if (req.url === '/redirect') return void res.writeHead(302, { location: '/ok' }).end();
        if (req.url === '/busy') return void res.writeHead(429, { 'retry-after': '7' }).end('slow down');
        if (req.url === '/hang') return; // never answers
        res.writeHead(500).end('boom '.repeat(500));
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const options = { timeoutMs: 500, blockPrivateNetworks: false };

  it('posts the body with its headers and reports a 2xx', async () => {
    const result = await sendWebhook(new URL(`${base}/ok`), { 'webhook-id': 'evt_1' }, '{"a":1}', options);
    expect(result).toMatchObject({ status: 204, error: null });
    expect(seen.at(-1)).toMatchObject({ body: '{"a":1}', headers: { 'webhook-id': 'evt_1', 'content-type': 'application/json' } });
  });

  it('does not follow redirects', async () => {
    const before = seen.length;
    const result = await sendWebhook(new URL(`${base}/redirect`), {}, '{}', options);
    expect(result.status).toBe(302);
    expect(seen.length).toBe(before + 1);
  });

  it('keeps Retry-After; records the status of a failure, never the answer unless the operator opted in (then a bounded excerpt)', async () => {
    expect(await sendWebhook(new URL(`${base}/busy`), {}, '{}', options)).toMatchObject({ status: 429, retryAfter: '7', error: 'HTTP 429' });
    expect(await sendWebhook(new URL(`${base}/busy`), {}, '{}', { ...options, recordResponseBodies: true })).toMatchObject({ status: 429, error: 'HTTP 429: slow down' });
    expect(await sendWebhook(new URL(`${base}/fail`), {}, '{}', options)).toMatchObject({ status: 500, error: 'HTTP 500' });
    const excerpt = await sendWebhook(new URL(`${base}/fail`), {}, '{}', { ...options, recordResponseBodies: true });
    expect(excerpt.status).toBe(500);
    expect(excerpt.error!.length).toBeLessThanOrEqual('HTTP 500: '.length + 512);
  });

  it('gives up at the deadline', async () => {
    const result = await sendWebhook(new URL(`${base}/hang`), {}, '{}', { ...options, timeoutMs: 200 });
    expect(result.status).toBeNull();
    expect(result.error).toMatch(/no answer within 200 ms/);
    expect(result.durationMs).toBeLessThan(1500);
  });

  it('reports a closed port as no answer', async () => {
    const result = await sendWebhook(new URL('http://127.0.0.1:9/x'), {}, '{}', options);
    expect(result.status).toBeNull();
    expect(result.error).toBe('connection refused');
  });

  it('never connects to a refused address, literal or resolved, even if the check passed earlier', async () => {
    const literal = await sendWebhook(new URL('http://169.254.169.254/latest'), {}, '{}', options);
    expect(literal).toMatchObject({ status: null });
    expect(literal.error).toMatch(/refused target/);
    const blocked = await sendWebhook(new URL(`${base}/ok`), {}, '{}', { ...options, blockPrivateNetworks: true });
    expect(blocked.error).toMatch(/refused target/);
    // A name that now resolves to the metadata address (DNS rebinding) is refused at connect time.
    const before = seen.length;
    const rebound = await sendWebhook(new URL('http://hooks.example.test/x'), {}, '{}', { ...options, resolve: async () => ['169.254.169.254'] });
    expect(rebound.error).toMatch(/refused/);
    const viaName = await sendWebhook(new URL(`http://receiver.example.test:${new URL(base).port}/ok`), {}, '{}', { ...options, resolve: async () => ['127.0.0.1'] });
    expect(viaName.status).toBe(204);
    expect(seen.length).toBe(before + 1);
  });

  it('reuses one connection for successive attempts with the keep-alive agents, vetting the address when it connects', async () => {
    const agents = deliveryAgents();
    try {
      const before = connections;
      for (let i = 0; i < 3; i++) {
        const result = await sendWebhook(new URL(`${base}/ok`), { 'webhook-id': `keep-${i}` }, '{}', { timeoutMs: 2000, blockPrivateNetworks: false, agents });
        expect(result.status).toBe(204);
      }
      expect(connections - before).toBe(1);
      // A pooled connection never bypasses the refusal: a refused address fails before any connection.
      const refused = await sendWebhook(new URL(base.replace('127.0.0.1', '169.254.169.254')), {}, '{}', { timeoutMs: 2000, blockPrivateNetworks: false, agents });
      expect(refused.status).toBeNull();
      expect(refused.error).toMatch(/refused target/);
    } finally {
      agents.http.destroy();
      agents.https.destroy();
    }
  });
});
