import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../src/app.setup';
import { parseDatabaseTimestamp } from '../../src/common/database/raw-values';
import { GeofenceEventRetention } from '../../src/geofencing/events/event-retention.service';
import { asApiKey, createApiKey } from '../support/auth';
import { Cartographer, CARTOGRAPHY_KEY_LEVELS, countQueries, createFloor, createGeofence, createSite, expectError, LatLng, signUp, Site } from '../support/cartography';
import { report } from '../support/positions';
import { createTestApp, FreshDatabase, freshDatabase, TestApp, testDatabaseKind, TwoInstances, twoInstances } from '../support/test-app';
import { waitFor, WebhookReceiver } from '../support/webhook-receiver';

const METRE_LAT = 1 / 111_195.08;
const ORIGIN_LAT = 42.8723597;
const ORIGIN_LNG = -8.5633224;
const METRE_LNG = METRE_LAT / Math.cos((ORIGIN_LAT * Math.PI) / 180);
const at = (east: number, north: number) => ({ lat: ORIGIN_LAT + north * METRE_LAT, lng: ORIGIN_LNG + east * METRE_LNG });

/** A 10 m square with its south-west corner at the building's location. */
function square(): LatLng[] {
  const sw = at(0, 0);
  const ne = at(10, 10);
  return [
    [sw.lat, sw.lng],
    [ne.lat, sw.lng],
    [ne.lat, ne.lng],
    [sw.lat, ne.lng],
    [sw.lat, sw.lng],
  ];
}

const IN = at(5, 5);
const OUT = at(30, 5);
// The ingest scenarios use past times: the timer would fire their deadlines between batches, so it is off there.
const NO_TIMER = { GEOFENCE_SWEEPER: 'false' };
const FAST_TIMER = { GEOFENCE_SWEEPER: 'true', GEOFENCE_SWEEP_INTERVAL_MS: '100' };
const WEBHOOK_ENV = { ...NO_TIMER, WEBHOOK_RETRY_SCHEDULE: '0s,1s,1s', WEBHOOK_TIMEOUT_MS: '600', WEBHOOK_POLL_INTERVAL_MS: '100' };

interface GeofenceEvent {
  id: string;
  seq: number;
  type: string;
  occurred_at: string;
  detected_at: string;
  organization_id: string;
  building_id: string;
  floor_id: number;
  geofence: { id: string; name: string; code: string };
  device_id: string;
  user_id: string | null;
  visit_id: string;
  position: { lat: number; lng: number; accuracy: number | null; time: string; poi_id: null } | null;
  classification: string | null;
  overlap: number | null;
  dwell_seconds: number;
  reason: string;
}

type Auth = Record<string, string>;

/** Fixes of one device on the site's floor, `times` in seconds after `base` (ms). */
function track(site: Site, deviceId: string, base: number, steps: Array<[number, { lat: number; lng: number }, number?]>) {
  return steps.map(([seconds, point, accuracy]) => ({
    device_id: deviceId,
    time: new Date(base + seconds * 1000).toISOString(),
    lat: point.lat,
    lng: point.lng,
    accuracy: accuracy ?? 2,
    floor_id: site.floor.id,
  }));
}

async function fenceWithRules(t: TestApp, auth: Auth, site: Site, rules: Record<string, unknown>, name = 'Lobby') {
  const fence = await createGeofence(t, auth, site.place, { name, code: name.toLowerCase(), geometric: square() });
  const response = await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(auth).send(rules);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return fence;
}

const events = async (t: TestApp, organizationId: string) =>
  (await t.dataSource.query(`SELECT seq, type, body FROM geofence_events WHERE organization_id = '${organizationId}' ORDER BY seq`)) as Array<{
    seq: number;
    type: string;
    body: string;
  }>;

/** The organization's logged events once at least `count` are in, read again 400 ms later so that one fired twice would show. */
async function settledEvents(t: TestApp, organizationId: string, count: number, what: string): Promise<GeofenceEvent[]> {
  await waitFor(
    async () => (await events(t, organizationId)).length,
    (logged) => logged >= count,
    10_000,
    what,
  );
  await new Promise((resolve) => setTimeout(resolve, 400));
  return (await events(t, organizationId)).map((row) => JSON.parse(row.body) as GeofenceEvent);
}

describe('geofence events at ingest (contract 7.2, 7.3)', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let siteA: Site;
  let siteB: Site;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await createTestApp({ env: WEBHOOK_ENV });
    a = await signUp(t, 'Events A');
    b = await signUp(t, 'Events B');
    siteA = await createSite(t, a.auth);
    siteB = await createSite(t, b.auth);
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  it('a track in, the exact events out: enter after min_dwell (dated at the first fix in), dwell, exit after the grace (dated at the first fix out)', async () => {
    const fence = await fenceWithRules(t, a.auth, siteA, { min_dwell_seconds: 3, exit_grace_seconds: 10, dwell_seconds: 5 });
    const base = Date.now() - 120_000;
    const body = {
      positions: track(siteA, 'track-1', base, [
        [0, OUT],
        [1, IN],
        [5, IN],
        [12, OUT],
        [25, OUT],
      ]),
    };
    const answer = (await report(t, a.auth, body)) as { accepted: number; events: GeofenceEvent[] };
    expect(answer.accepted).toBe(5);
    expect(answer.events.map((event) => [event.type, event.occurred_at, event.reason, event.dwell_seconds])).toEqual([
      ['geofence.enter', new Date(base + 1000).toISOString(), 'position', 0],
      ['geofence.dwell', new Date(base + 6000).toISOString(), 'position', 5],
      ['geofence.exit', new Date(base + 12_000).toISOString(), 'position', 11],
    ]);
    const [enter] = answer.events;
    expect(enter).toMatchObject({
      organization_id: a.org.organizationId,
      building_id: String(siteA.building.id),
      floor_id: siteA.floor.id,
      geofence: { id: fence.id, name: 'Lobby', code: 'lobby' },
      device_id: 'track-1',
      classification: 'inside',
      // Confirmed by the min_dwell deadline, before the fix at 5 s was looked at: the position is the first fix in.
      position: { lat: IN.lat, lng: IN.lng, accuracy: 2, time: new Date(base + 1000).toISOString(), poi_id: null },
    });
    expect(enter.id).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(enter.visit_id).toMatch(/^vis_[0-9a-f]{24}$/);
    expect(new Set(answer.events.map((event) => event.visit_id)).size).toBe(1);
    expect(answer.events.map((event) => event.seq)).toEqual([1, 2, 3]);

    // Stored with the fixes: the log, the closed visit, no state left for a device plainly outside.
    const stored = await events(t, a.org.organizationId);
    expect(stored.map((row) => JSON.parse(row.body))).toEqual(answer.events);
    const [visit] = await t.dataSource.query(`SELECT * FROM geofence_visits WHERE id = '${enter.visit_id}'`);
    expect(visit).toMatchObject({ geofence_id: fence.id, device_id: 'track-1', exit_reason: 'position' });
    expect(Boolean(visit.dwell_fired)).toBe(true);
    expect(await t.dataSource.query(`SELECT * FROM geofence_states WHERE device_id = 'track-1'`)).toEqual([]);
  });

  it('state carries across batches; re-entry within the grace continues the visit; late and inaccurate fixes drive nothing', async () => {
    const base = Date.now() - 100_000;
    const first = (await report(t, a.auth, {
      positions: track(siteA, 'track-2', base, [
        [0, IN],
        [4, IN],
      ]),
    })) as { events: GeofenceEvent[] };
    expect(first.events.map((event) => event.type)).toEqual(['geofence.enter']);
    const [state] = await t.dataSource.query(`SELECT phase, visit_id FROM geofence_states WHERE device_id = 'track-2'`);
    expect(state).toEqual({ phase: 'inside', visit_id: first.events[0].visit_id });

    // Out, back within 10 s: the same visit; an inaccurate fix far out and a late fix change nothing.
    const second = (await report(t, a.auth, {
      positions: [
        ...track(siteA, 'track-2', base, [
          [8, OUT],
          [12, IN],
          [14, OUT, 50],
        ]),
      ],
    })) as { events: GeofenceEvent[] };
    // Only the dwell due at 5 s (fired by the fix at 8 s, with its own time): no exit, no second enter.
    expect(second.events.map((event) => [event.type, event.occurred_at, event.visit_id])).toEqual([
      ['geofence.dwell', new Date(base + 5000).toISOString(), first.events[0].visit_id],
    ]);
    const late = (await report(t, a.auth, { positions: track(siteA, 'track-2', base, [[2, OUT]]) })) as { events: GeofenceEvent[] };
    expect(late.events).toEqual([]);
    const [after] = await t.dataSource.query(`SELECT phase, visit_id FROM geofence_states WHERE device_id = 'track-2'`);
    expect(after).toEqual({ phase: 'inside', visit_id: first.events[0].visit_id });
    // The fixes were stored all the same.
    const [{ count }] = await t.dataSource.query(`SELECT COUNT(*) AS count FROM position_history WHERE device_id = 'track-2'`);
    expect(Number(count)).toBe(6);
  });

  it("a fix older than the device's last evaluated fix drives nothing, also for a fence the device has no state with", async () => {
    // rev2: the late rule is per device (7.2), not only per (device, fence) state row.
    const base = Date.now() - 90_000;
    const now = (await report(t, a.auth, { positions: track(siteA, 'late-1', base, [[20, OUT]]) })) as { events: GeofenceEvent[] };
    expect(now.events).toEqual([]);
    const late = (await report(t, a.auth, {
      positions: track(siteA, 'late-1', base, [
        [5, IN],
        [10, IN],
      ]),
    })) as { accepted: number; events: GeofenceEvent[] };
    expect(late.accepted).toBe(2);
    expect(late.events).toEqual([]);
    expect(await t.dataSource.query(`SELECT * FROM geofence_states WHERE device_id = 'late-1'`)).toEqual([]);
    // Fixes after the last evaluated one drive state again.
    const back = (await report(t, a.auth, {
      positions: track(siteA, 'late-1', base, [
        [21, IN],
        [25, IN],
      ]),
    })) as { events: GeofenceEvent[] };
    expect(back.events.map((event) => [event.type, event.occurred_at])).toEqual([['geofence.enter', new Date(base + 21_000).toISOString()]]);
  });

  it('?return_events=false leaves the events out of the answer but stores them', async () => {
    const before = (await events(t, a.org.organizationId)).length;
    const base = Date.now() - 80_000;
    const response = await t.http
      .post('/api/v1/realtime/positions?return_events=false')
      .set(a.auth)
      .send({
        positions: track(siteA, 'track-3', base, [
          [0, IN],
          [5, IN],
        ]),
      });
    expect(response.status).toBe(200);
    expect(response.body.events).toEqual([]);
    const stored = await events(t, a.org.organizationId);
    expect(stored.slice(before).map((row) => row.type)).toEqual(['geofence.enter', 'geofence.dwell']);
  });

  it('seq is per organization, and another organization fires only on its own fences', async () => {
    await fenceWithRules(t, b.auth, siteB, { min_dwell_seconds: 0 }, 'Other');
    const base = Date.now() - 60_000;
    const answer = (await report(t, b.auth, { positions: track(siteB, 'track-b', base, [[0, IN]]) })) as { events: GeofenceEvent[] };
    expect(answer.events.map((event) => [event.seq, event.type, event.geofence.name, event.organization_id])).toEqual([[1, 'geofence.enter', 'Other', b.org.organizationId]]);
    // Organization A's log did not grow from B's fixes.
    expect((await events(t, a.org.organizationId)).every((row) => JSON.parse(row.body).organization_id === a.org.organizationId)).toBe(true);
  });

  it('moving a fence exits its occupants with fence_changed, deleting one with fence_deleted, in the write', async () => {
    const moved = await fenceWithRules(t, b.auth, siteB, { min_dwell_seconds: 0 }, 'Moved');
    const deleted = await fenceWithRules(t, b.auth, siteB, { min_dwell_seconds: 0 }, 'Deleted');
    const base = Date.now() - 30_000;
    const answer = (await report(t, b.auth, { positions: track(siteB, 'occupant', base, [[0, IN]]) })) as { events: GeofenceEvent[] };
    const enters = new Map(answer.events.filter((event) => event.type === 'geofence.enter').map((event) => [event.geofence.id, event]));
    expect([...enters.keys()]).toEqual(expect.arrayContaining([moved.id, deleted.id]));

    const movedAway = square().map(([lat, lng]) => [lat + 100 * METRE_LAT, lng]);
    expect((await t.http.patch(`/api/v1/geofences/${moved.id}`).set(b.auth).send({ geometric: movedAway })).status).toBe(200);
    expect((await t.http.delete(`/api/v1/geofences/${deleted.id}`).set(b.auth)).status).toBe(204);

    const exits = (await events(t, b.org.organizationId))
      .map((row) => JSON.parse(row.body) as GeofenceEvent)
      .filter((event) => event.device_id === 'occupant' && event.type === 'geofence.exit');
    expect(exits.map((event) => [event.geofence.id, event.reason, event.visit_id])).toEqual([
      [moved.id, 'fence_changed', enters.get(moved.id)!.visit_id],
      [deleted.id, 'fence_deleted', enters.get(deleted.id)!.visit_id],
    ]);
    const visits = await t.dataSource.query(
      `SELECT geofence_id, exit_reason FROM geofence_visits WHERE device_id = 'occupant' AND geofence_id IN ('${moved.id}', '${deleted.id}')`,
    );
    expect(visits.map((visit: { geofence_id: string; exit_reason: string }) => [visit.geofence_id, visit.exit_reason]).sort()).toEqual(
      [
        [moved.id, 'fence_changed'],
        [deleted.id, 'fence_deleted'],
      ].sort(),
    );
    const states = await t.dataSource.query(`SELECT geofence_id FROM geofence_states WHERE device_id = 'occupant' AND geofence_id IN ('${moved.id}', '${deleted.id}')`);
    expect(states).toEqual([]);
    // A later fix at the old place no longer matches the moved fence.
    const later = (await report(t, b.auth, { positions: track(siteB, 'occupant', base, [[5, IN]]) })) as { events: GeofenceEvent[] };
    expect(later.events.filter((event) => event.geofence.id === moved.id || event.geofence.id === deleted.id)).toEqual([]);
  });

  it("turning a fence off (its rules, or the organization's settings it follows) exits its occupants with fence_changed, in the write", async () => {
    const org = await signUp(t, 'Disabling');
    const site = await createSite(t, org.auth);
    await t.http.put('/api/v1/geofencing/settings').set(org.auth).send({ min_dwell_seconds: 0 }).expect(200);
    const own = await fenceWithRules(t, org.auth, site, { dwell_seconds: 3600 }, 'Own');
    const follows = await createGeofence(t, org.auth, site.place, { name: 'Follows', code: 'follows', geometric: square() });
    const pinned = await fenceWithRules(t, org.auth, site, { enabled: true }, 'Pinned');
    const base = Date.now() - 30_000;
    const entered = (await report(t, org.auth, { positions: track(site, 'walker', base, [[0, IN]]) })) as { events: GeofenceEvent[] };
    const visitOf = new Map(entered.events.map((event) => [event.geofence.id, event.visit_id]));
    expect([...visitOf.keys()].sort()).toEqual([own.id, follows.id, pinned.id].sort());
    const exits = async () => (await events(t, org.org.organizationId)).map((row) => JSON.parse(row.body) as GeofenceEvent).filter((event) => event.type === 'geofence.exit');
    const occupants = async (fenceId: string) =>
      ((await t.http.get(`/api/v1/geofences/${fenceId}/occupants`).set(org.auth).expect(200)).body as { data: Array<{ device_id: string }> }).data;

    const before = Date.now();
    await t.http.put(`/api/v1/geofences/${own.id}/rules`).set(org.auth).send({ enabled: false }).expect(200);
    const first = await exits();
    expect(first.map((event) => [event.geofence.id, event.reason, event.visit_id, event.device_id])).toEqual([[own.id, 'fence_changed', visitOf.get(own.id), 'walker']]);
    expect(Date.parse(first[0].occurred_at)).toBeGreaterThanOrEqual(before - 5);
    expect(await occupants(own.id)).toEqual([]);
    expect((await occupants(follows.id)).map((occupant) => occupant.device_id)).toEqual(['walker']);

    // The settings reach the fence that follows them, not the one that sets enabled itself.
    await t.http.put('/api/v1/geofencing/settings').set(org.auth).send({ enabled: false }).expect(200);
    expect((await exits()).map((event) => [event.geofence.id, event.reason, event.visit_id])).toEqual([
      [own.id, 'fence_changed', visitOf.get(own.id)],
      [follows.id, 'fence_changed', visitOf.get(follows.id)],
    ]);
    expect(await occupants(follows.id)).toEqual([]);
    expect((await occupants(pinned.id)).map((occupant) => occupant.device_id)).toEqual(['walker']);
    const visits = (await t.dataSource.query(
      `SELECT geofence_id, exit_reason FROM geofence_visits WHERE device_id = 'walker' AND exited_at IS NOT NULL AND organization_id = '${org.org.organizationId}'`,
    )) as Array<{
      geofence_id: string;
      exit_reason: string;
    }>;
    expect(visits.map((visit) => [visit.geofence_id, visit.exit_reason]).sort()).toEqual(
      [
        [own.id, 'fence_changed'],
        [follows.id, 'fence_changed'],
      ].sort(),
    );
    // Dropping its own rules makes the pinned fence follow the (disabled) settings: its occupant leaves too.
    await t.http.delete(`/api/v1/geofences/${pinned.id}/rules`).set(org.auth).expect(204);
    expect((await exits()).map((event) => [event.geofence.id, event.reason, event.visit_id]).slice(2)).toEqual([[pinned.id, 'fence_changed', visitOf.get(pinned.id)]]);
    expect(await occupants(pinned.id)).toEqual([]);
    // Writing the rules again changes nothing more (no visit left to end).
    await t.http.put(`/api/v1/geofences/${own.id}/rules`).set(org.auth).send({ enabled: false }).expect(200);
    expect(await exits()).toHaveLength(3);

    // Turned back on, a fence counts the device inside again from its next fix: a new visit.
    await t.http.put(`/api/v1/geofences/${own.id}/rules`).set(org.auth).send({ enabled: true }).expect(200);
    const again = (await report(t, org.auth, { positions: track(site, 'walker', Date.now(), [[0, IN]]) })) as { events: GeofenceEvent[] };
    expect(again.events.map((event) => [event.type, event.geofence.id])).toEqual([['geofence.enter', own.id]]);
    expect(again.events[0].visit_id).not.toBe(visitOf.get(own.id));
  });

  it('reads no fence rows at ingest once the floors are indexed, also for a device that changed floors (its exit still fires)', async () => {
    const org = await signUp(t, 'No fence reads');
    const site = await createSite(t, org.auth);
    const upstairs = await createFloor(t, org.auth, site.building.id, { level: 1 });
    await t.http.put('/api/v1/geofencing/settings').set(org.auth).send({ min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 0 }).expect(200);
    const fence = await createGeofence(t, org.auth, site.place, { name: 'Ground', code: 'ground', geometric: square() });
    const base = Date.now() - 60_000;
    // Both floors' indexes get built (and cached) by a first fix on each.
    await report(t, org.auth, { positions: [...track(site, 'warm', base, [[0, OUT]]), { ...track(site, 'warm-up', base, [[0, OUT]])[0], floor_id: upstairs.id }] });

    const entering = await countQueries(t, () => report(t, org.auth, { positions: track(site, 'climber', base, [[1, IN]]) }));
    expect((entering.result.events as GeofenceEvent[]).map((event) => [event.type, event.geofence.id])).toEqual([['geofence.enter', fence.id]]);
    const climbing = await countQueries(t, () => report(t, org.auth, { positions: [{ ...track(site, 'climber', base, [[2, IN]])[0], floor_id: upstairs.id }] }));
    // On another floor the fence is out of reach: the visit ends at that fix.
    expect((climbing.result.events as GeofenceEvent[]).map((event) => [event.type, event.reason, event.occurred_at])).toEqual([
      ['geofence.exit', 'position', new Date(base + 2000).toISOString()],
    ]);
    for (const { queries } of [entering, climbing]) expect(queries.filter((sql) => /from\s+"?geofences"?\s+g/i.test(sql))).toEqual([]);
  });

  it('creating a fence around a device is silent (the device must be seen out first), unless initial_trigger', async () => {
    const quiet = await signUp(t, 'Creation');
    const quietSite = await createSite(t, quiet.auth);
    await t.http.put('/api/v1/geofencing/settings').set(quiet.auth).send({ min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 0 }).expect(200);
    const base = Date.now() - 20_000;
    await report(t, quiet.auth, { positions: track(quietSite, 'present', base, [[0, IN]]) });
    const fence = await createGeofence(t, quiet.auth, quietSite.place, { name: 'Late', geometric: square() });
    expect(await events(t, quiet.org.organizationId)).toEqual([]);
    // Fixes sampled after the fence exists (one sampled before it could not enter it: review finding 10).
    const created = Date.now();
    const still = (await report(t, quiet.auth, { positions: track(quietSite, 'present', created, [[1, IN]]) })) as { events: GeofenceEvent[] };
    expect(still.events).toEqual([]);
    const back = (await report(t, quiet.auth, {
      positions: track(quietSite, 'present', created, [
        [2, OUT],
        [3, IN],
      ]),
    })) as { events: GeofenceEvent[] };
    expect(back.events.map((event) => [event.type, event.occurred_at, event.geofence.id])).toEqual([['geofence.enter', new Date(created + 3000).toISOString(), fence.id]]);

    await t.http.put('/api/v1/geofencing/settings').set(quiet.auth).send({ initial_trigger: true }).expect(200);
    const before = Date.now();
    const triggered = await createGeofence(t, quiet.auth, quietSite.place, { name: 'Triggered', geometric: square() });
    const fired = (await events(t, quiet.org.organizationId)).map((row) => JSON.parse(row.body) as GeofenceEvent).filter((event) => event.geofence.id === triggered.id);
    expect(fired.map((event) => [event.type, event.reason, event.device_id])).toEqual([['geofence.enter', 'fence_created', 'present']]);
    expect(Date.parse(fired[0].occurred_at)).toBeGreaterThanOrEqual(before - 5);
  });

  it('delivers an enter event to a webhook (the outbox is written with the event)', async () => {
    const created = await t.http.post('/api/v1/webhooks').set(b.auth).send({ url: receiver.url });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    receiver.secrets.push(created.body.secret);
    const base = Date.now() - 40_000;
    const answer = (await report(t, b.auth, { positions: track(siteB, 'track-hook', base, [[0, IN]]) })) as { events: GeofenceEvent[] };
    const [enter] = answer.events;
    expect(enter.type).toBe('geofence.enter');
    const [got] = await waitFor(
      () => receiver.byId(enter.id),
      (list) => list.length > 0,
      15_000,
      'the enter delivery',
    );
    expect(got.verifiedWith).toBe(0);
    expect(JSON.parse(got.body)).toEqual({ type: 'geofence.enter', timestamp: enter.occurred_at, data: enter });
  });
});

describe('the geofence event log (contract 7.3)', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let siteA: Site;
  let otherSiteA: Site;
  let fenceA: { id: string };
  let all: GeofenceEvent[];

  const page = async (auth: Auth, query: string) => {
    const response = await t.http.get(`/api/v1/geofencing/events${query}`).set(auth);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as { data: GeofenceEvent[]; next_cursor: string | null; has_more: boolean };
  };

  beforeAll(async () => {
    t = await createTestApp({ env: NO_TIMER });
    a = await signUp(t, 'Log A');
    b = await signUp(t, 'Log B');
    siteA = await createSite(t, a.auth);
    otherSiteA = await createSite(t, a.auth);
    const siteB = await createSite(t, b.auth);
    const rules = { min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 0 };
    fenceA = await fenceWithRules(t, a.auth, siteA, rules, 'First');
    await fenceWithRules(t, a.auth, otherSiteA, rules, 'Second');
    await fenceWithRules(t, b.auth, siteB, rules, 'Theirs');
    const base = Date.now() - 100_000;
    // Two devices in the first building (an enter and an exit each), one in the second (an enter): 5 events.
    await report(t, a.auth, {
      positions: [
        ...track(siteA, 'dev-1', base, [
          [0, IN],
          [10, OUT],
        ]),
        ...track(siteA, 'dev-2', base, [
          [20, IN],
          [30, OUT],
        ]),
      ],
    });
    await report(t, a.auth, { positions: track(otherSiteA, 'dev-3', base, [[40, IN]]) });
    await report(t, b.auth, { positions: track(siteB, 'dev-b', base, [[0, IN]]) });
    all = (await page(a.auth, '')).data;
  });
  afterAll(async () => t?.close());

  it("lists the organization's events oldest first, as ingest answered them, and one by id", async () => {
    expect(all.map((event) => [event.seq, event.device_id, event.type])).toEqual([
      [1, 'dev-1', 'geofence.enter'],
      [2, 'dev-1', 'geofence.exit'],
      [3, 'dev-2', 'geofence.enter'],
      [4, 'dev-2', 'geofence.exit'],
      [5, 'dev-3', 'geofence.enter'],
    ]);
    const one = await t.http.get(`/api/v1/geofencing/events/${all[2].id}`).set(a.auth);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(all[2]);
  });

  it('pages forward with after and backward with before', async () => {
    const first = await page(a.auth, '?limit=2');
    expect(first.data.map((event) => event.seq)).toEqual([1, 2]);
    expect(first).toMatchObject({ next_cursor: '2', has_more: true });
    const second = await page(a.auth, `?limit=2&after=${first.next_cursor}`);
    expect(second.data.map((event) => event.seq)).toEqual([3, 4]);
    const third = await page(a.auth, `?limit=2&after=${second.next_cursor}`);
    expect(third).toMatchObject({ next_cursor: '5', has_more: false });
    expect(third.data.map((event) => event.seq)).toEqual([5]);
    // Nothing new yet: the cursor stays where it was, for the next poll.
    expect(await page(a.auth, '?after=5')).toEqual({ data: [], next_cursor: '5', has_more: false });
    const back = await page(a.auth, '?before=4&limit=2');
    expect(back.data.map((event) => event.seq)).toEqual([3, 2]);
    expect(back).toMatchObject({ next_cursor: '2', has_more: true });
  });

  it('filters by type, geofence, device, building and time', async () => {
    const seqs = async (query: string) => (await page(a.auth, query)).data.map((event) => event.seq);
    expect(await seqs('?types=geofence.exit')).toEqual([2, 4]);
    expect(await seqs(`?geofence_ids=${fenceA.id}`)).toEqual([1, 2, 3, 4]);
    expect(await seqs('?device_ids=dev-2,dev-3')).toEqual([3, 4, 5]);
    expect(await seqs(`?building_ids=${otherSiteA.building.id}`)).toEqual([5]);
    expect(await seqs(`?user_ids=${all[0].user_id}&types=geofence.enter`)).toEqual([1, 3, 5]);
    expect(await seqs(`?from=${encodeURIComponent(all[2].occurred_at)}&to=${encodeURIComponent(all[3].occurred_at)}`)).toEqual([3, 4]);
  });

  it("never shows another organization's events", async () => {
    const theirs = await page(b.auth, '');
    expect(theirs.data.map((event) => [event.seq, event.device_id])).toEqual([[1, 'dev-b']]);
    expectError(await t.http.get(`/api/v1/geofencing/events/${theirs.data[0].id}`).set(a.auth), 404, 'entity_not_found');
    expect((await page(b.auth, `?geofence_ids=${fenceA.id}`)).data).toEqual([]);
  });

  it('answers 422 naming each bad parameter, 404 for an unknown id', async () => {
    const response = await t.http.get('/api/v1/geofencing/events?limit=0&after=abc&types=geofence.left&from=yesterday').set(a.auth);
    expectError(response, 422, 'validation_failed');
    expect(response.body.errors.map((error: { fields: string }) => error.fields)).toEqual(['after', 'limit', 'types', 'from']);
    expectError(await t.http.get('/api/v1/geofencing/events/evt_000000000000000000000000').set(a.auth), 404, 'entity_not_found');
  });

  it.each(CARTOGRAPHY_KEY_LEVELS.map(([permission]) => permission))('a %s key reads the log unless it is a positioning key', async (permission) => {
    const key = await createApiKey(t, a.token, permission);
    const responses = [
      await t.http.get('/api/v1/geofencing/events').set(asApiKey(key.apikey)),
      await t.http.get(`/api/v1/geofencing/events/${all[0].id}`).set(asApiKey(key.apikey)),
    ];
    for (const response of responses) {
      if (permission === 'positioning') expectError(response, 403, 'forbidden');
      else expect(response.status).toBe(200);
    }
    expect(responses[0].body.data?.length ?? 0).toBe(permission === 'positioning' ? 0 : 5);
  });

  it('needs credentials', async () => {
    expectError(await t.http.get('/api/v1/geofencing/events'), 401, 'unauthorized');
  });
});

describe('event retention: 410 cursor_expired (contract 7.3)', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let siteA: Site;
  let siteB: Site;
  const rules = { min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 0 };
  const DAY = 86_400_000;

  beforeAll(async () => {
    t = await createTestApp({ env: { ...NO_TIMER, GEOFENCE_EVENT_RETENTION_DAYS: '30' } });
    a = await signUp(t, 'Retention A');
    b = await signUp(t, 'Retention B');
    siteA = await createSite(t, a.auth);
    siteB = await createSite(t, b.auth);
    await fenceWithRules(t, a.auth, siteA, rules, 'Kept');
    await fenceWithRules(t, b.auth, siteB, rules, 'Theirs');
  });
  afterAll(async () => t?.close());

  const list = (auth: Auth, query: string) => t.http.get(`/api/v1/geofencing/events${query}`).set(auth);
  const seqs = (response: { body: { data: GeofenceEvent[] } }) => response.body.data.map((event) => event.seq);
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('deletes the events detected before the retention, oldest first; a cursor they passed is 410, the rest still pages', async () => {
    const base = Date.now() - 60_000;
    // Four events (seq 1 to 4), then the cut, then four more (5 to 8); organization B's come after the cut too.
    await report(t, a.auth, {
      positions: track(siteA, 'old', base, [
        [0, IN],
        [1, OUT],
        [2, IN],
        [3, OUT],
      ]),
    });
    await pause(20);
    const cut = Date.now();
    await pause(20);
    await report(t, a.auth, {
      positions: track(siteA, 'new', base, [
        [0, IN],
        [1, OUT],
        [2, IN],
        [3, OUT],
      ]),
    });
    await report(t, b.auth, {
      positions: track(siteB, 'theirs', base, [
        [0, IN],
        [1, OUT],
      ]),
    });
    expect(seqs(await list(a.auth, '?after=0'))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);

    const retention = t.app.get(GeofenceEventRetention);
    // Nothing is 30 days old yet.
    expect(await retention.applyRetention()).toBe(0);
    expect(await retention.applyRetention(cut + 30 * DAY)).toBe(4);
    expect(
      ((await t.dataSource.query(`SELECT seq FROM geofence_events WHERE organization_id = '${a.org.organizationId}' ORDER BY seq`)) as Array<{ seq: number }>).map((row) =>
        Number(row.seq),
      ),
    ).toEqual([5, 6, 7, 8]);

    expect(seqs(await list(a.auth, ''))).toEqual([5, 6, 7, 8]);
    // A reader that saw seq 4 missed nothing; one that saw only up to 3 would miss seq 4.
    expect(seqs(await list(a.auth, '?after=4'))).toEqual([5, 6, 7, 8]);
    for (const query of ['?after=3', '?after=0', '?before=4', '?before=1', '?after=1&types=geofence.exit']) {
      const expired = await list(a.auth, query);
      expectError(expired, 410, 'cursor_expired');
      expect(expired.body.errors[0]).toMatchObject({ code: 'cursor_expired', fields: query.startsWith('?after') ? 'after' : 'before' });
    }
    // Paging backward ends at the oldest event kept.
    const backward = await list(a.auth, '?before=7');
    expect(seqs(backward)).toEqual([6, 5]);
    expect(await list(a.auth, '?before=5').then((response) => [response.status, seqs(response), response.body.has_more])).toEqual([200, [], false]);
    // Another organization's log has its own seq: its cursors are not affected.
    expect(seqs(await list(b.auth, '?after=0'))).toEqual([1, 2]);

    // Everything gone: the counter still tells which cursors missed events.
    expect(await retention.applyRetention(Date.now() + 31 * DAY)).toBe(6);
    expect((await list(a.auth, '?after=8')).body).toEqual({ data: [], next_cursor: '8', has_more: false });
    expectError(await list(a.auth, '?after=7'), 410, 'cursor_expired');
    expectError(await list(b.auth, '?after=1'), 410, 'cursor_expired');
    // New events continue the seq after the deleted ones.
    const later = (await report(t, a.auth, { positions: track(siteA, 'later', Date.now() - 1000, [[0, IN]]) })) as { events: GeofenceEvent[] };
    expect(later.events.map((event) => event.seq)).toEqual([9]);
    expect(seqs(await list(a.auth, '?after=8'))).toEqual([9]);
  });
});

describe('occupants, occupancy and visits (contract 7.6)', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let site: Site;
  let lobby: { id: string };
  let hall: { id: string };
  let base: number;
  let enters: GeofenceEvent[];

  beforeAll(async () => {
    t = await createTestApp({ env: NO_TIMER });
    a = await signUp(t, 'Occupancy A');
    b = await signUp(t, 'Occupancy B');
    site = await createSite(t, a.auth);
    const rules = { min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 0, stale_after_seconds: 3600 };
    lobby = await fenceWithRules(t, a.auth, site, rules, 'Lobby');
    hall = await fenceWithRules(t, a.auth, site, rules, 'Hall');
    await t.http
      .put(`/api/v1/geofences/${hall.id}`)
      .set(a.auth)
      .send({ geometric: square().map(([lat, lng]) => [lat + 50 * METRE_LAT, lng]) })
      .expect(200);
    base = Date.now() - 60_000;
    const answer = (await report(t, a.auth, {
      positions: [
        ...track(site, 'in-1', base, [[0, IN]]),
        ...track(site, 'in-2', base, [[10, IN]]),
        ...track(site, 'left', base, [
          [0, IN],
          [20, OUT],
        ]),
      ],
    })) as { events: GeofenceEvent[] };
    enters = answer.events.filter((event) => event.type === 'geofence.enter');
  });
  afterAll(async () => t?.close());

  it('lists who is inside a fence now, with their visit and last position', async () => {
    const response = await t.http.get(`/api/v1/geofences/${lobby.id}/occupants`).set(a.auth);
    expect(response.status).toBe(200);
    const visitOf = (device: string) => enters.find((event) => event.device_id === device)!.visit_id;
    expect(
      response.body.data.map((o: { device_id: string; visit_id: string; entered_at: string; exiting: boolean }) => [o.device_id, o.visit_id, o.entered_at, o.exiting]),
    ).toEqual([
      ['in-1', visitOf('in-1'), new Date(base).toISOString(), false],
      ['in-2', visitOf('in-2'), new Date(base + 10_000).toISOString(), false],
    ]);
    expect(response.body.data[0].dwell_seconds).toBeGreaterThanOrEqual(59);
    expect(response.body.data[0].last_position).toEqual({ lat: IN.lat, lng: IN.lng, accuracy: 2, time: new Date(base).toISOString() });
    expect((await t.http.get(`/api/v1/geofences/${hall.id}/occupants`).set(a.auth)).body).toEqual({ data: [] });
  });

  it('counts occupants per fence, filtered by building and floor', async () => {
    const expected = { data: [{ geofence_id: lobby.id, name: 'Lobby', code: 'lobby', building_id: site.building.id, floor_id: site.floor.id, occupants: 2 }] };
    expect((await t.http.get('/api/v1/geofencing/occupancy').set(a.auth)).body).toEqual(expected);
    expect((await t.http.get(`/api/v1/geofencing/occupancy?building_ids=${site.building.id}&floor_ids=${site.floor.id}`).set(a.auth)).body).toEqual(expected);
    expect((await t.http.get(`/api/v1/geofencing/occupancy?floor_ids=${site.floor.id + 1000}`).set(a.auth)).body).toEqual({ data: [] });
    expectError(await t.http.get('/api/v1/geofencing/occupancy?building_ids=x').set(a.auth), 422, 'validation_failed');
  });

  it('lists the visits of a fence between two times, paged', async () => {
    const all = await t.http.get(`/api/v1/geofences/${lobby.id}/visits`).set(a.auth);
    expect(all.status).toBe(200);
    type VisitRow = { device_id: string; exited_at: string | null; exit_reason: string | null };
    // Newest first: in-2 entered last; in-1 and left entered together.
    expect(all.body.data[0].device_id).toBe('in-2');
    expect(all.body.data.map((v: VisitRow) => [v.device_id, v.exited_at, v.exit_reason]).sort()).toEqual([
      ['in-1', null, null],
      ['in-2', null, null],
      ['left', new Date(base + 20_000).toISOString(), 'position'],
    ]);
    expect(all.body.metadata.total_elements).toBe(3);
    // Visits under way after base + 25 s: the open ones only.
    const later = await t.http.get(`/api/v1/geofences/${lobby.id}/visits?from=${encodeURIComponent(new Date(base + 25_000).toISOString())}`).set(a.auth);
    expect(later.body.data.map((v: { device_id: string }) => v.device_id)).toEqual(['in-2', 'in-1']);
    const firstPage = await t.http.get(`/api/v1/geofences/${lobby.id}/visits?size=1`).set(a.auth);
    expect(firstPage.body.data.length).toBe(1);
    expect(firstPage.body.metadata).toMatchObject({ total_elements: 3, total_pages: 3 });
    expectError(await t.http.get(`/api/v1/geofences/${lobby.id}/visits?from=yesterday`).set(a.auth), 422, 'validation_failed');
  });

  it("another organization's fence is not found; a positioning key may not read", async () => {
    for (const path of [`/api/v1/geofences/${lobby.id}/occupants`, `/api/v1/geofences/${lobby.id}/visits`]) {
      expectError(await t.http.get(path).set(b.auth), 404, 'entity_not_found');
    }
    expect((await t.http.get('/api/v1/geofencing/occupancy').set(b.auth)).body).toEqual({ data: [] });
    for (const [permission] of CARTOGRAPHY_KEY_LEVELS) {
      const key = asApiKey((await createApiKey(t, a.token, permission)).apikey);
      for (const path of [`/api/v1/geofences/${lobby.id}/occupants`, `/api/v1/geofences/${lobby.id}/visits`, '/api/v1/geofencing/occupancy']) {
        const response = await t.http.get(path).set(key);
        if (permission === 'positioning') expectError(response, 403, 'forbidden');
        else expect(response.status, path).toBe(200);
      }
    }
  });
});

describe('simulate (contract 7.6)', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let site: Site;
  let siteB: Site;
  let fence: { id: string };
  let other: { id: string };

  beforeAll(async () => {
    t = await createTestApp({ env: NO_TIMER });
    a = await signUp(t, 'Simulate A');
    b = await signUp(t, 'Simulate B');
    site = await createSite(t, a.auth);
    siteB = await createSite(t, b.auth);
    fence = await fenceWithRules(t, a.auth, site, { min_dwell_seconds: 3, exit_grace_seconds: 0, dwell_seconds: 0 }, 'Simulated');
    other = await fenceWithRules(t, a.auth, site, { min_dwell_seconds: 0, dwell_seconds: 0 }, 'Overlapping');
  });
  afterAll(async () => t?.close());

  const simulate = (auth: Auth, body: unknown) =>
    t.http
      .post('/api/v1/geofencing/simulate')
      .set(auth)
      .send(body as object);
  const base = Date.parse('2026-01-01T10:00:00Z');

  it('answers the events a track would fire, and stores nothing', async () => {
    const positions = track(site, 'sim', base, [
      [0, IN],
      [5, IN],
      [9, OUT],
    ]);
    const response = await simulate(a.auth, { positions, geofence_ids: [fence.id] });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.events.map((event: GeofenceEvent) => [event.seq, event.type, event.occurred_at, event.geofence.id, event.id, event.detected_at])).toEqual([
      [1, 'geofence.enter', new Date(base).toISOString(), fence.id, null, null],
      [2, 'geofence.exit', new Date(base + 9000).toISOString(), fence.id, null, null],
    ]);
    expect(await t.dataSource.query('SELECT id FROM geofence_events')).toEqual([]);
    expect(await t.dataSource.query('SELECT device_id FROM geofence_states')).toEqual([]);
    expect(await t.dataSource.query('SELECT device_id FROM position_history')).toEqual([]);
  });

  it('other rules change the answer; without geofence_ids every fence of the floor counts', async () => {
    const positions = track(site, 'sim', base, [
      [0, IN],
      [1, OUT],
    ]);
    const strict = await simulate(a.auth, { positions, geofence_ids: [fence.id] });
    expect(strict.body.events).toEqual([]);
    const relaxed = await simulate(a.auth, { positions, geofence_ids: [fence.id], rules: { min_dwell_seconds: 0 } });
    expect(relaxed.body.events.map((event: GeofenceEvent) => event.type)).toEqual(['geofence.enter', 'geofence.exit']);
    const all = await simulate(a.auth, { positions });
    // The other fence's exit waits out its 10 s grace, past the end of the track: only its enter.
    expect(all.body.events.map((event: GeofenceEvent) => [event.type, event.geofence.id])).toEqual([['geofence.enter', other.id]]);
  });

  it('names every bad field, unknown and foreign floors with 422', async () => {
    const bad = await simulate(a.auth, { positions: [{ time: 'x', lat: 100, lng: 0, floor_id: site.floor.id }], rules: { buffer_m: -1 } });
    expectError(bad, 422, 'validation_failed');
    expect(bad.body.errors.map((error: { fields: string }) => error.fields)).toEqual(['positions[0].time', 'positions[0].lat', 'rules.buffer_m']);
    expectError(await simulate(a.auth, { positions: [] }), 422, 'validation_failed');
    const foreign = await simulate(a.auth, { positions: track(siteB, 'sim', base, [[0, IN]]) });
    expectError(foreign, 422, 'validation_failed');
    expect(foreign.body.errors.map((error: { fields: string }) => error.fields)).toEqual(['positions[0].floor_id']);
    expect((await simulate(b.auth, { positions: track(siteB, 'sim', base, [[0, IN]]) })).body).toEqual({ events: [] });
  });

  it("refuses geofence_ids that are not the caller's with 422 naming each: another organization's, deleted and unknown ones alike", async () => {
    const theirs = await fenceWithRules(t, b.auth, siteB, { min_dwell_seconds: 0 }, 'Theirs');
    const deleted = await fenceWithRules(t, a.auth, site, { min_dwell_seconds: 0 }, 'Deleted');
    await t.http.delete(`/api/v1/geofences/${deleted.id}`).set(a.auth).expect(204);
    const unknown = '00000000-0000-4000-8000-00000000abcd';
    const positions = track(site, 'sim', base, [
      [0, IN],
      [5, IN],
      [9, OUT],
    ]);
    const refused = await simulate(a.auth, { positions, geofence_ids: [fence.id, theirs.id, unknown, deleted.id] });
    expectError(refused, 422, 'validation_failed');
    expect(refused.body.errors).toEqual([
      { message: `geofence ${theirs.id} does not exist`, code: 'not_found', fields: 'geofence_ids', value: theirs.id },
      { message: `geofence ${unknown} does not exist`, code: 'not_found', fields: 'geofence_ids', value: unknown },
      { message: `geofence ${deleted.id} does not exist`, code: 'not_found', fields: 'geofence_ids', value: deleted.id },
    ]);
    // The same answer for either: another organization's fence is not told to exist.
    const foreignOnly = await simulate(a.auth, { positions, geofence_ids: [theirs.id] });
    const unknownOnly = await simulate(a.auth, { positions, geofence_ids: [unknown] });
    expect(foreignOnly.status).toBe(422);
    expect(unknownOnly.status).toBe(422);
    expect({ ...foreignOnly.body, errors: foreignOnly.body.errors.map((error: { code: string; fields: string }) => [error.code, error.fields]) }).toEqual({
      ...unknownOnly.body,
      errors: unknownOnly.body.errors.map((error: { code: string; fields: string }) => [error.code, error.fields]),
    });
    // Their owner simulates against it.
    expect((await simulate(b.auth, { positions: track(siteB, 'sim', base, [[0, IN]]), geofence_ids: [theirs.id] })).status).toBe(200);
  });

  it('takes 10,000 positions with long fields (a body over the 1 MiB of other routes); 10,001 are 422, a body over 8 MiB 413', async () => {
    // 10 devices of 64 characters, 1,000 fixes each at full precision, alternating in and out every 5 s.
    const devices = Array.from({ length: 10 }, (_, index) => `${'d'.repeat(62)}${String(index).padStart(2, '0')}`);
    const userId = '00000000-0000-4000-8000-000000000001';
    const positions = devices.flatMap((device) =>
      Array.from({ length: 1000 }, (_, step) => {
        const point = step % 2 === 0 ? IN : OUT;
        return {
          device_id: device,
          user_id: userId,
          time: new Date(base + step * 5000).toISOString(),
          lat: point.lat + 1e-12,
          lng: point.lng + 1e-12,
          accuracy: 2.123456789,
          floor_id: site.floor.id,
        };
      }),
    );
    expect(JSON.stringify({ positions }).length).toBeGreaterThan(BODY_LIMIT_BYTES);
    const response = await simulate(a.auth, { positions, geofence_ids: [other.id] });
    expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
    // Each device enters at its first fix in and never leaves: out for 5 s is within the 10 s exit grace.
    expect(response.body.events.map((event: GeofenceEvent) => [event.type, event.device_id, event.occurred_at])).toEqual(
      devices.map((device) => ['geofence.enter', device, new Date(base).toISOString()]),
    );

    const tooMany = await simulate(a.auth, { positions: [...positions, positions[0]] });
    expectError(tooMany, 422, 'validation_failed');
    expect(tooMany.body.errors.map((error: { fields: string }) => error.fields)).toEqual(['positions']);

    const padded = positions.map((position) => ({ ...position, note: 'x'.repeat(900) }));
    expect(JSON.stringify({ positions: padded }).length).toBeGreaterThan(8 * 1024 * 1024);
    expectError(await simulate(a.auth, { positions: padded }), 413, 'payload_too_large');
    // Other routes keep the API's limit.
    const evaluate = await t.http
      .post('/api/v1/geofencing/evaluate')
      .set(a.auth)
      .send({ points: positions.slice(0, 1000), padding: 'x'.repeat(BODY_LIMIT_BYTES) });
    expectError(evaluate, 413, 'payload_too_large');
  });

  it('needs read access: a positioning key may not simulate', async () => {
    const key = asApiKey((await createApiKey(t, a.token, 'positioning' as never)).apikey);
    expectError(await simulate(key, { positions: track(site, 'sim', base, [[0, IN]]) }), 403, 'forbidden');
    const reader = asApiKey((await createApiKey(t, a.token, 'read-only' as never)).apikey);
    expect((await simulate(reader, { positions: track(site, 'sim', base, [[0, IN]]) })).status).toBe(200);
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('geofence events on two instances of one PostgreSQL', () => {
  let instances: TwoInstances | undefined;
  let one: TestApp;
  let two: TestApp;
  let owner: Cartographer;
  let site: Site;

  beforeAll(async () => {
    instances = await twoInstances(NO_TIMER);
    ({ a: one, b: two } = instances);
    owner = await signUp(one, 'Events instances');
    site = await createSite(one, owner.auth);
    await fenceWithRules(one, owner.auth, site, { min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 0 });
  });
  afterAll(async () => {
    await instances?.close();
  });

  it("one device's fixes alternating between instances: every event exactly once, in order", async () => {
    const base = Date.now() - 200_000;
    const points = [OUT, IN, IN, OUT, OUT, IN, OUT, IN];
    const fired: GeofenceEvent[] = [];
    for (let step = 0; step < points.length; step++) {
      const app = step % 2 === 0 ? one : two;
      const answer = (await report(app, owner.auth, { positions: track(site, 'alternating', base, [[step * 2, points[step]]]) })) as { events: GeofenceEvent[] };
      fired.push(...answer.events);
    }
    expect(fired.map((event) => [event.type, event.occurred_at])).toEqual([
      ['geofence.enter', new Date(base + 2000).toISOString()],
      ['geofence.exit', new Date(base + 6000).toISOString()],
      ['geofence.enter', new Date(base + 10_000).toISOString()],
      ['geofence.exit', new Date(base + 12_000).toISOString()],
      ['geofence.enter', new Date(base + 14_000).toISOString()],
    ]);
    const stored = await events(one, owner.org.organizationId);
    expect(stored.map((row) => JSON.parse(row.body).id)).toEqual(fired.map((event) => event.id));
    expect(stored.map((row) => Number(row.seq))).toEqual([1, 2, 3, 4, 5]);
  });

  it('two batches of one device racing on two instances never double-fire', async () => {
    for (let round = 0; round < 5; round++) {
      const base = Date.now() - 150_000 + round * 10_000;
      const device = `racer-${round}`;
      // Both batches put the device inside; exactly one enter may come out of the pair.
      const body = {
        positions: track(site, device, base, [
          [0, IN],
          [1, IN],
        ]),
      };
      const answers = await Promise.all([report(one, owner.auth, body), report(two, owner.auth, body)]);
      const fired = answers.flatMap((answer) => answer.events as GeofenceEvent[]);
      expect(fired.map((event) => event.type)).toEqual(['geofence.enter']);
      const [{ count }] = await one.dataSource.query(`SELECT COUNT(*) AS count FROM geofence_visits WHERE device_id = $1`, [device]);
      expect(Number(count)).toBe(1);
    }
    const seqs = (await events(one, owner.org.organizationId)).map((row) => Number(row.seq));
    expect(seqs).toEqual(seqs.map((_, index) => index + 1));
  });

  it('event retention run by both instances at once deletes each event once', async () => {
    const base = Date.now() - 100_000;
    const steps: Array<[number, { lat: number; lng: number }]> = Array.from({ length: 40 }, (_, step) => [step, step % 2 === 0 ? IN : OUT]);
    await report(one, owner.auth, { positions: track(site, 'retained', base, steps) });
    const before = Number(((await one.dataSource.query('SELECT COUNT(*) AS n FROM geofence_events')) as Array<{ n: string }>)[0].n);
    expect(before).toBeGreaterThanOrEqual(40);
    const future = Date.now() + 400 * 86_400_000;
    const deleted = await Promise.all([one.app.get(GeofenceEventRetention).applyRetention(future), two.app.get(GeofenceEventRetention).applyRetention(future)]);
    // One instance holds the lock and works, the other skips (or finds nothing left).
    expect(deleted[0] + deleted[1]).toBe(before);
    expect(await one.dataSource.query('SELECT seq FROM geofence_events')).toEqual([]);
    const expired = await two.http.get('/api/v1/geofencing/events?after=1').set(owner.auth);
    expectError(expired, 410, 'cursor_expired');
  });
});

describe('deadlines from the server timer (contract 7.2)', () => {
  let t: TestApp;
  let owner: Cartographer;
  let site: Site;

  beforeAll(async () => {
    t = await createTestApp({ env: FAST_TIMER });
    owner = await signUp(t, 'Timer');
    site = await createSite(t, owner.auth);
    await fenceWithRules(t, owner.auth, site, { min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 1, stale_after_seconds: 2 });
  });
  afterAll(async () => t?.close());

  it('a device that goes silent inside gets its dwell and then its timeout exit, each at its own time, once', async () => {
    const start = Date.now() - 200;
    const answer = (await report(t, owner.auth, { positions: track(site, 'sleeper', start, [[0, IN]]) })) as { events: GeofenceEvent[] };
    expect(answer.events.map((event) => event.type)).toEqual(['geofence.enter']);
    const all = await settledEvents(t, owner.org.organizationId, 3, 'the dwell and the timeout exit');
    expect(all.map((event) => [event.type, event.occurred_at, event.reason, event.visit_id])).toEqual([
      ['geofence.enter', new Date(start).toISOString(), 'position', answer.events[0].visit_id],
      ['geofence.dwell', new Date(start + 1000).toISOString(), 'position', answer.events[0].visit_id],
      ['geofence.exit', new Date(start + 2000).toISOString(), 'timeout', answer.events[0].visit_id],
    ]);
    expect(await t.dataSource.query(`SELECT * FROM geofence_states WHERE device_id = 'sleeper'`)).toEqual([]);
  });

  it('a fix that moves the timeout later leaves the earlier deadline stored: the timer wakes early, fires nothing, and the exit comes at its own time, once', async () => {
    const walker = await signUp(t, 'Walker');
    const walkerSite = await createSite(t, walker.auth);
    await fenceWithRules(t, walker.auth, walkerSite, { min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 0, stale_after_seconds: 5 });
    const storedDeadline = async () => {
      const rows = (await t.dataSource.query(`SELECT next_deadline_at FROM geofence_states WHERE organization_id = '${walker.org.organizationId}'`)) as Array<{
        next_deadline_at: unknown;
      }>;
      expect(rows).toHaveLength(1);
      return parseDatabaseTimestamp(rows[0].next_deadline_at)?.getTime();
    };

    const start = Date.now() - 100;
    const entered = (await report(t, walker.auth, { positions: track(walkerSite, 'walker', start, [[0, IN]]) })) as { events: GeofenceEvent[] };
    expect(entered.events.map((event) => event.type)).toEqual(['geofence.enter']);
    expect(await storedDeadline()).toBe(start + 5000);

    // Still inside 1.5 s later: the timeout is now 5 s after this fix; the stored deadline stays
    // (3.5 s to spare before the timer would move it).
    const later = start + 1500;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, later - Date.now())));
    const stayed = (await report(t, walker.auth, { positions: track(walkerSite, 'walker', later, [[0, IN]]) })) as { events: GeofenceEvent[] };
    expect(stayed.events).toEqual([]);
    expect(await storedDeadline()).toBe(start + 5000);

    // The timer wakes at start + 5 s, finds nothing due and moves the deadline to the real timeout.
    await waitFor(storedDeadline, (deadline) => deadline === later + 5000, 10_000, 'the deadline moved on');
    expect(await events(t, walker.org.organizationId)).toHaveLength(1);

    const logged = await settledEvents(t, walker.org.organizationId, 2, 'the timeout exit');
    expect(logged.map((event) => [event.type, event.occurred_at, event.reason, event.visit_id])).toEqual([
      ['geofence.enter', new Date(start).toISOString(), 'position', entered.events[0].visit_id],
      ['geofence.exit', new Date(later + 5000).toISOString(), 'timeout', entered.events[0].visit_id],
    ]);
  });

  it("a shorter timeout, set on the fence or in the organization's settings while a device is inside, fires at once at its own time, not at the old one", async () => {
    for (const where of ['fence', 'settings'] as const) {
      const owner = await signUp(t, `Shortened ${where}`);
      const place = await createSite(t, owner.auth);
      const fence = await fenceWithRules(t, owner.auth, place, {
        min_dwell_seconds: 0,
        exit_grace_seconds: 0,
        dwell_seconds: 0,
        ...(where === 'fence' && { stale_after_seconds: 600 }),
      });
      if (where === 'settings') {
        const settings = await t.http.put('/api/v1/geofencing/settings').set(owner.auth).send({ stale_after_seconds: 600 });
        expect(settings.status, JSON.stringify(settings.body)).toBe(200);
      }
      const start = Date.now() - 100;
      const entered = (await report(t, owner.auth, { positions: track(place, 'dozer', start, [[0, IN]]) })) as { events: GeofenceEvent[] };
      expect(entered.events.map((event) => event.type)).toEqual(['geofence.enter']);

      const shortened = await t.http
        .put(where === 'fence' ? `/api/v1/geofences/${fence.id}/rules` : '/api/v1/geofencing/settings')
        .set(owner.auth)
        .send({ stale_after_seconds: 1 });
      expect(shortened.status, JSON.stringify(shortened.body)).toBe(200);

      const logged = await settledEvents(t, owner.org.organizationId, 2, `the timeout exit under the new rules (${where})`);
      expect(logged.map((event) => [event.type, event.occurred_at, event.reason, event.visit_id])).toEqual([
        ['geofence.enter', new Date(start).toISOString(), 'position', entered.events[0].visit_id],
        ['geofence.exit', new Date(start + 1000).toISOString(), 'timeout', entered.events[0].visit_id],
      ]);
    }
  });
});

describe('a restart between a fix and its dwell deadline', () => {
  it('the next instance on the same database fires the dwell once, with its original time', async () => {
    const database = await freshDatabase();
    const shared: FreshDatabase = { ...database, drop: async () => undefined };
    const env = { JWT_SECRET: randomBytes(32).toString('hex') };
    let first: TestApp | undefined = await createTestApp({ database: shared, env: { ...env, ...NO_TIMER } });
    let second: TestApp | undefined;
    try {
      const owner = await signUp(first, 'Restart');
      const site = await createSite(first, owner.auth);
      await fenceWithRules(first, owner.auth, site, { min_dwell_seconds: 0, dwell_seconds: 1 });
      const start = Date.now() - 100;
      const answer = (await report(first, owner.auth, { positions: track(site, 'restart', start, [[0, IN]]) })) as { events: GeofenceEvent[] };
      expect(answer.events.map((event) => event.type)).toEqual(['geofence.enter']);
      await first.close();
      first = undefined;
      // The dwell falls due while no instance runs.
      await new Promise((resolve) => setTimeout(resolve, 1200));
      second = await createTestApp({ database: shared, env: { ...env, ...FAST_TIMER } });
      const app = second;
      await waitFor(
        async () => (await events(app, owner.org.organizationId)).length,
        (count) => count >= 2,
        10_000,
        'the dwell after the restart',
      );
      await new Promise((resolve) => setTimeout(resolve, 400));
      const all = (await events(app, owner.org.organizationId)).map((row) => JSON.parse(row.body) as GeofenceEvent);
      expect(all.map((event) => [event.type, event.occurred_at, event.visit_id])).toEqual([
        ['geofence.enter', new Date(start).toISOString(), answer.events[0].visit_id],
        ['geofence.dwell', new Date(start + 1000).toISOString(), answer.events[0].visit_id],
      ]);
    } finally {
      await first?.close();
      await second?.close();
      await database.drop();
    }
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('the timer on two instances of one PostgreSQL', () => {
  it('fires each due deadline once across instances', async () => {
    const instances = await twoInstances({ GEOFENCE_SWEEPER: 'true', GEOFENCE_SWEEP_INTERVAL_MS: '20' });
    const { a: one, b: two } = instances;
    try {
      const owner = await signUp(one, 'Timer instances');
      const site = await createSite(one, owner.auth);
      await fenceWithRules(one, owner.auth, site, { min_dwell_seconds: 0, dwell_seconds: 1, stale_after_seconds: 600 });
      const start = Date.now() - 100;
      const devices = Array.from({ length: 20 }, (_, index) => `timer-${index}`);
      await Promise.all(devices.map((device, index) => report(index % 2 === 0 ? one : two, owner.auth, { positions: track(site, device, start, [[0, IN]]) })));
      const dwells = async () => (await one.dataSource.query(`SELECT device_id FROM geofence_events WHERE type = 'geofence.dwell'`)) as Array<{ device_id: string }>;
      await waitFor(dwells, (rows) => rows.length >= devices.length, 10_000, 'every dwell');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await dwells()).map((row) => row.device_id).sort()).toEqual([...devices].sort());
    } finally {
      await instances.close();
    }
  });

  it("one device's fixes alternating between the instances, then silent: enter, the timer's dwell and timeout exit, each exactly once (rev2)", async () => {
    const instances = await twoInstances({ GEOFENCE_SWEEPER: 'true', GEOFENCE_SWEEP_INTERVAL_MS: '20' });
    const { a: one, b: two } = instances;
    try {
      const owner = await signUp(one, 'Alternating and silent');
      const site = await createSite(one, owner.auth);
      await fenceWithRules(one, owner.auth, site, { min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 2, stale_after_seconds: 3 });
      const times: number[] = [];
      for (let step = 0; step < 4; step++) {
        const time = Date.now();
        times.push(time);
        await report(step % 2 === 0 ? one : two, owner.auth, {
          positions: [{ device_id: 'sleeper', time: new Date(time).toISOString(), lat: IN.lat, lng: IN.lng, accuracy: 2, floor_id: site.floor.id }],
        });
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      const fired = async () => (await events(one, owner.org.organizationId)).map((row) => JSON.parse(row.body) as GeofenceEvent);
      await waitFor(fired, (list) => list.some((event) => event.type === 'geofence.exit'), 15_000, 'the timeout exit');
      // Both timers keep running: nothing fires twice.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const list = await fired();
      expect(list.map((event) => [event.type, event.reason, event.occurred_at])).toEqual([
        ['geofence.enter', 'position', new Date(times[0]).toISOString()],
        ['geofence.dwell', 'position', new Date(times[0] + 2000).toISOString()],
        ['geofence.exit', 'timeout', new Date(times[3] + 3000).toISOString()],
      ]);
      expect(new Set(list.map((event) => event.visit_id)).size).toBe(1);
      expect(list.map((event) => Number(event.seq))).toEqual([1, 2, 3]);
    } finally {
      await instances.close();
    }
  });
});
