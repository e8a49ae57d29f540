import { beforeAll, describe, expect, it } from 'vitest';
import { asBasic, asBearer } from '../support/auth';
import { INSIDE, INSTANT_RULES, OUTSIDE } from '../support/geofence-events';
import { ensureServerBuilt, startProcess, RunningProcess } from '../support/server-process';
import { createTestApp, FreshDatabase, freshDatabase } from '../support/test-app';
import { square } from '../support/cartography';

/**
 * The server killed (SIGKILL) in the middle of an ingest burst, then started again on the same
 * database: every fix and event it acknowledged is there once, each device's newest fix is its
 * history's newest (SQLite keeps them in memory and writes them behind), and the engine goes on
 * from where it was.
 */
let build: { root: string };

beforeAll(async () => {
  build = { root: await ensureServerBuilt() };
}, 240_000);

const ADMIN = { email: 'crash@example.test', password: 'crash-password-0123' };
const DEVICES = 24;
const WORKERS = 6;

interface Acknowledged {
  fixes: Map<string, number[]>;
  events: Array<{ id: string; seq: number; device_id: string; type: string }>;
}

async function start(database: FreshDatabase): Promise<{ server: RunningProcess; url: string }> {
  const server = startProcess('node', ['dist/src/main.js'], {
    cwd: build.root,
    env: {
      ...database.env,
      NODE_ENV: 'production',
      JWT_SECRET: 'crash-safety-secret-that-is-long-enough-0123456789',
      HOST: '127.0.0.1',
      PORT: '0',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_REQUESTS: 'false',
    },
  });
  const listening = await server.waitForLine((line) => typeof line.url === 'string' && String(line.msg).startsWith('Cartograph listening'), 90_000);
  return { server, url: listening.url as string };
}

async function ready(url: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if ((await fetch(`${url}/health/ready`).catch(() => null))?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('not ready');
}

async function call(url: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

describe('a crash in the middle of an ingest burst', () => {
  it('loses nothing acknowledged: fixes, newest fixes and events are all there once after a restart, and the engine goes on from them', async () => {
    const database = await freshDatabase();
    const keep: FreshDatabase = { ...database, drop: async () => undefined };
    try {
      let { server, url } = await start(database);
      await ready(url);
      const token = (await call(url, 'POST', '/api/v1/auth/access_tokens', asBasic(ADMIN.email, ADMIN.password))).json.access_token as string;
      const auth = asBearer(token);
      const building = (
        await call(url, 'POST', '/api/v1/buildings', auth, { name: 'Crash', location: { lat: 42.8723597, lng: -8.5633224 }, dimensions: { width: 200, length: 200 }, rotation: 0 })
      ).json;
      const floor = (await call(url, 'POST', '/api/v1/floors', auth, { building_id: building.id, level: 0, name: 'Ground' })).json;
      const fence = (await call(url, 'POST', '/api/v1/geofences', auth, { name: 'Gate', code: 'gate', building_id: String(building.id), floor_id: floor.id, geometric: square() }))
        .json;
      expect((await call(url, 'PUT', `/api/v1/geofences/${fence.id}/rules`, auth, INSTANT_RULES)).status).toBe(200);

      // Each device walks in and out of the fence, one fix a second of its own clock; each worker sends every device's next two fixes.
      const acknowledged: Acknowledged = { fixes: new Map(), events: [] };
      let clock = Date.now() - 3_600_000;
      let sent = 0;
      let stopped = false;
      const worker = async () => {
        while (!stopped) {
          const base = (clock += 2000);
          const positions = Array.from({ length: DEVICES }, (_, d) =>
            [INSIDE, OUTSIDE].map((point, step) => ({ device_id: `walker-${d}`, time: new Date(base + step * 1000).toISOString(), ...point, accuracy: 2, floor_id: floor.id })),
          ).flat();
          sent += 1;
          const answer = await call(url, 'POST', '/api/v1/realtime/positions', auth, { positions }).catch(() => null);
          if (!answer) return;
          if (answer.status !== 200) throw new Error(`ingest answered ${answer.status}: ${JSON.stringify(answer.json)}`);
          expect(answer.json.rejected).toEqual([]);
          for (const position of positions) {
            const times = acknowledged.fixes.get(position.device_id) ?? [];
            times.push(Date.parse(position.time));
            acknowledged.fixes.set(position.device_id, times);
          }
          acknowledged.events.push(...answer.json.events);
        }
      };
      const running = Array.from({ length: WORKERS }, () => worker());
      while (acknowledged.events.length < DEVICES * 2 * 15) await new Promise((resolve) => setTimeout(resolve, 20));
      server.child.kill('SIGKILL');
      stopped = true;
      await Promise.allSettled(running);
      expect((await server.exited).signal).toBe('SIGKILL');
      expect(sent).toBeGreaterThan(15);

      ({ server, url } = await start(database));
      await ready(url);

      // Every acknowledged event is in the log, once; seq numbers are unique.
      const logged: Array<{ id: string; seq: number; device_id: string; type: string }> = [];
      for (let after = 0; ;) {
        const page = await call(url, 'GET', `/api/v1/geofencing/events?after=${after}&limit=500`, auth);
        expect(page.status).toBe(200);
        const data = (page.json.data ?? page.json) as typeof logged;
        if (data.length === 0) break;
        logged.push(...data);
        after = data[data.length - 1].seq;
      }
      const loggedIds = new Set(logged.map((event) => event.id));
      expect(loggedIds.size).toBe(logged.length);
      expect(new Set(logged.map((event) => event.seq)).size).toBe(logged.length);
      for (const event of acknowledged.events) expect(loggedIds.has(event.id), event.id).toBe(true);

      // Each device's newest fix, as the live read serves it, is the newest of its history and no older than any acknowledged fix.
      const live = await call(url, 'GET', `/api/v1/realtime/positions?building_ids=${building.id}&max_sec_threshold=86400`, auth);
      expect(live.status).toBe(200);
      const newest = new Map<string, number>();
      for (const feature of live.json.features as Array<{ id?: string; properties: Record<string, unknown> }>) {
        newest.set(String(feature.id), Date.parse(String(feature.properties.time)));
      }
      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);

      const check = await createTestApp({ database: keep });
      try {
        const history: Array<{ device_id: string; n: number | string; newest: unknown }> = await check.dataSource.query(
          'SELECT device_id, COUNT(*) AS n, MAX("time") AS newest FROM position_history GROUP BY device_id',
        );
        const stored = new Map(history.map((row) => [row.device_id, row]));
        for (const [deviceId, times] of acknowledged.fixes) {
          const row = stored.get(deviceId)!;
          const all: Array<{ time: unknown }> = await check.dataSource.query(`SELECT "time" FROM position_history WHERE device_id = '${deviceId}'`);
          const kept = new Set(
            all.map((entry) => new Date(typeof entry.time === 'string' && !entry.time.endsWith('Z') ? `${entry.time.replace(' ', 'T')}Z` : (entry.time as string)).getTime()),
          );
          for (const time of times) expect(kept.has(time), `${deviceId} ${new Date(time).toISOString()}`).toBe(true);
          const historyNewest = Math.max(...kept);
          expect(Number(row.n)).toBe(kept.size);
          expect(newest.get(deviceId), deviceId).toBe(historyNewest);
          expect(historyNewest).toBeGreaterThanOrEqual(Math.max(...times));
        }
      } finally {
        await check.close();
      }

      // The engine goes on from its states: a device seen inside is not entered again; out and in again is one exit and one enter.
      ({ server, url } = await start(database));
      await ready(url);
      const next = Date.now() - 60_000;
      const positions = Array.from({ length: DEVICES }, (_, d) => [
        { device_id: `walker-${d}`, time: new Date(next).toISOString(), ...OUTSIDE, accuracy: 2, floor_id: floor.id },
        { device_id: `walker-${d}`, time: new Date(next + 1000).toISOString(), ...INSIDE, accuracy: 2, floor_id: floor.id },
        { device_id: `walker-${d}`, time: new Date(next + 2000).toISOString(), ...INSIDE, accuracy: 2, floor_id: floor.id },
      ]).flat();
      const after = await call(url, 'POST', '/api/v1/realtime/positions', auth, { positions });
      expect(after.status).toBe(200);
      const byDevice = new Map<string, string[]>();
      for (const event of after.json.events as Array<{ device_id: string; type: string }>) byDevice.set(event.device_id, [...(byDevice.get(event.device_id) ?? []), event.type]);
      for (let d = 0; d < DEVICES; d++) expect(byDevice.get(`walker-${d}`), `walker-${d}`).toEqual(['geofence.enter']);
      server.child.kill('SIGTERM');
      await server.exited;
    } finally {
      await database.drop();
    }
  }, 300_000);
});
