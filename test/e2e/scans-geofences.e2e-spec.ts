import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { BuildingFrame, toGeoreference } from '../../src/common/geometry/cartesian';
import { KnownTransmitter } from '../../src/infrastructure/estimator/transmitter';
import { beaconGrid, seededRandom, synthesizeScan } from '../support/synthetic-scans';
import { asApiKey, createApiKey } from '../support/auth';
import { Cartographer, createGeofence, createSite, LatLng, signUp, Site } from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * Issue 15's end-to-end promise: a device that only reports what it hears walks through a
 * fence, and the fence's enter and exit events (and its visit) appear where a user reads them.
 * The scans come from the synthetic generator (log-distance model, 4 dB shadowing, the 10 to
 * 30 loudest transmitters), seeded, over beacons on a 10 m grid and a few access points.
 */

interface Rectangle {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

interface Fix {
  index: number;
  device_id: string;
  time: string;
  floor_id: number;
  x: number;
  y: number;
  lat: number;
  lng: number;
  accuracy: number;
}

interface GeofenceEvent {
  id: string;
  type: string;
  occurred_at: string;
  device_id: string;
  floor_id: number;
  visit_id: string;
  geofence: { id: string; name: string };
  position: { lat: number; lng: number; accuracy: number; time: string };
}

const ACCESS_POINTS = [
  [20, 20],
  [60, 60],
  [100, 20],
  [30, 65],
  [90, 60],
].map(([x, y], i) => ({ bssid: `0a:1b:2c:3d:4e:${(0x50 + i).toString(16)}`, x, y }));

/** The fence the walk crosses, and one beside the path it never enters (floor metres). */
const LOBBY: Rectangle = { x0: 48, y0: 28, x1: 72, y1: 52 };
const STORE: Rectangle = { x0: 48, y0: 64, x1: 72, y1: 78 };
const PATH_Y = 40;
/** Walking east along y = 40 at 1 m/s from x = 10, a scan every 2 s for 100 s. */
const WALK = Array.from({ length: 51 }, (_, step) => ({ seconds: 2 * step, x: 10 + 2 * step, y: PATH_Y }));

const inside = (r: Rectangle, p: { x: number; y: number }) => p.x > r.x0 && p.x < r.x1 && p.y > r.y0 && p.y < r.y1;
const frameOf = (site: Site): BuildingFrame => ({
  latitude: site.building.location.lat,
  longitude: site.building.location.lng,
  width: site.building.dimensions.width,
  length: site.building.dimensions.length,
  rotation: site.building.rotation,
});

function ringOf(frame: BuildingFrame, r: Rectangle): LatLng[] {
  const corners = [
    [r.x0, r.y0],
    [r.x1, r.y0],
    [r.x1, r.y1],
    [r.x0, r.y1],
  ].map(([x, y]) => toGeoreference(frame, { x, y }));
  return [...corners, corners[0]].map((corner) => [corner.lat, corner.lng]);
}

describe('scans walking through a fence', () => {
  let t: TestApp;
  let admin: Cartographer;
  let site: Site;
  let device: Record<string, string>;
  let lobby: { id: string };
  let store: { id: string };
  let fixes: Fix[];
  let answered: GeofenceEvent[];
  const base = Date.now() - 150_000;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signUp(t, 'Scan walk');
    site = await createSite(t, admin.auth);
    const beacons = beaconGrid(12, 8, 10, site.floor.id);
    const installed = await t.http
      .put(`/api/v1/infrastructure?building_id=${site.building.id}`)
      .set(admin.auth)
      .send({
        wifi: ACCESS_POINTS.map((ap) => ({ floor_id: site.floor.id, bssid: ap.bssid.toUpperCase(), x: ap.x, y: ap.y })),
        ble: beacons.map((beacon) => {
          const [uuid, major, minor] = beacon.key.split(':');
          return { floor_id: site.floor.id, uuid, major: Number(major), minor: Number(minor), tx_power: -59, x: beacon.x, y: beacon.y };
        }),
      });
    expect(installed.status, JSON.stringify(installed.body)).toBe(200);
    const frame = frameOf(site);
    lobby = await createGeofence(t, admin.auth, site.place, { name: 'Lobby', code: 'lobby', geometric: ringOf(frame, LOBBY) });
    store = await createGeofence(t, admin.auth, site.place, { name: 'Store', code: 'store', geometric: ringOf(frame, STORE) });
    device = asApiKey((await createApiKey(t, admin.token, ApiPermission.Positioning)).apikey);

    // What the device hears, as the generator models it: an access point at −40 dBm at 1 m, a beacon at its tx_power.
    const transmitters: KnownTransmitter[] = [
      ...beacons,
      ...ACCESS_POINTS.map((ap, i) => ({ key: ap.bssid, kind: 'wifi' as const, id: i + 1, floorId: site.floor.id, x: ap.x, y: ap.y, referenceRssi: -40 })),
    ];
    const random = seededRandom(15);
    const scans = WALK.map((step) => {
      const heard = synthesizeScan(transmitters, step, random);
      return {
        device_id: 'walker',
        time: new Date(base + step.seconds * 1000).toISOString(),
        ble: heard.filter((r) => r.kind === 'ble').map((r) => ({ ...beaconOf(r.key), rssi: r.rssi })),
        wifi: heard.filter((r) => r.kind === 'wifi').map((r) => ({ bssid: r.key, rssi: r.rssi })),
      };
    });
    // Posted as the device would, a batch every 20 s or so, without naming the building.
    fixes = [];
    answered = [];
    for (let start = 0; start < scans.length; start += 10) {
      const response = await t.http
        .post('/api/v1/realtime/scans')
        .set(device)
        .send({ scans: scans.slice(start, start + 10) });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.rejected).toEqual([]);
      fixes.push(...(response.body.fixes as Fix[]).map((fix) => ({ ...fix, index: fix.index + start })));
      answered.push(...(response.body.events as GeofenceEvent[]));
    }
  });
  afterAll(async () => t?.close());

  it('computes a position from every scan: close to the walk, and on the right side of the fence away from its edges', () => {
    expect(fixes.map((fix) => fix.index)).toEqual(WALK.map((_, i) => i));
    const errors = fixes.map((fix) => Math.hypot(fix.x - WALK[fix.index].x, fix.y - WALK[fix.index].y)).sort((a, b) => a - b);
    expect(errors[Math.floor(errors.length / 2)]).toBeLessThan(2);
    for (const fix of fixes) {
      const truth = WALK[fix.index];
      expect(fix).toMatchObject({ device_id: 'walker', building_id: site.building.id, floor_id: site.floor.id });
      // Farther than 6 m from the fence's edges, the estimate is where the walker is.
      if (Math.min(Math.abs(truth.x - LOBBY.x0), Math.abs(truth.x - LOBBY.x1)) >= 6) expect(inside(LOBBY, fix), `scan ${fix.index} at x=${truth.x}`).toBe(inside(LOBBY, truth));
      expect(inside(STORE, fix)).toBe(false);
    }
  });

  it('fires the enter and the exit of the fence crossed, and nothing for the fence beside the path', async () => {
    expect(answered.map((event) => [event.type, event.geofence.name, event.device_id])).toEqual([
      ['geofence.enter', 'Lobby', 'walker'],
      ['geofence.exit', 'Lobby', 'walker'],
    ]);
    const [enter, exit] = answered;
    expect(enter.visit_id).toBe(exit.visit_id);
    // The walker crosses the west edge at 38 s and the east edge at 62 s; the events are dated at the fixes that crossed.
    const secondsOf = (event: GeofenceEvent) => (Date.parse(event.occurred_at) - base) / 1000;
    expect(secondsOf(enter)).toBeGreaterThanOrEqual(32);
    expect(secondsOf(enter)).toBeLessThanOrEqual(44);
    expect(secondsOf(exit)).toBeGreaterThanOrEqual(56);
    expect(secondsOf(exit)).toBeLessThanOrEqual(68);
    // The enter carries the estimated fix that entered.
    const entering = fixes.find((fix) => fix.time === enter.position.time)!;
    expect(enter.position).toMatchObject({ lat: entering.lat, lng: entering.lng, accuracy: entering.accuracy });
    expect(inside(LOBBY, entering)).toBe(true);
  });

  it('shows the events in the event log and the visit on the fence', async () => {
    const log = await t.http.get('/api/v1/geofencing/events').set(admin.auth).expect(200);
    expect(log.body.data).toEqual(answered);
    const visits = await t.http.get(`/api/v1/geofences/${lobby.id}/visits`).set(admin.auth).expect(200);
    expect(visits.body.data).toEqual([
      expect.objectContaining({ device_id: 'walker', entered_at: answered[0].occurred_at, exited_at: answered[1].occurred_at, exit_reason: 'position' }),
    ]);
    expect((await t.http.get(`/api/v1/geofences/${store.id}/visits`).set(admin.auth).expect(200)).body.data).toEqual([]);
    // Where the walk ended: the last estimate, stored like any fix (the walk ended more than a minute ago: widen the live window).
    const live = await t.http.get(`/api/v1/realtime/positions?building_ids=${site.building.id}&max_sec_threshold=3600`).set(admin.auth).expect(200);
    const walker = live.body.features.find((feature: { id: string }) => feature.id === 'walker');
    expect(walker.geometry.coordinates).toEqual([fixes.at(-1)!.lat, fixes.at(-1)!.lng]);
  });

  it('?return_events=false leaves the events out of the answer, and they are stored all the same', async () => {
    const random = seededRandom(16);
    const scans = WALK.slice(15, 30).map((step) => ({
      device_id: 'quiet-walker',
      time: new Date(base + step.seconds * 1000).toISOString(),
      ble: synthesizeScan(beaconGrid(12, 8, 10, site.floor.id), step, random).map((r) => ({ ...beaconOf(r.key), rssi: r.rssi })),
    }));
    const response = await t.http.post('/api/v1/realtime/scans?return_events=false').set(device).send(scans).expect(200);
    expect(response.body).toMatchObject({ accepted: 15, events: [] });
    const log = await t.http.get('/api/v1/geofencing/events').set(admin.auth).expect(200);
    expect(log.body.data.filter((event: GeofenceEvent) => event.device_id === 'quiet-walker').map((event: GeofenceEvent) => [event.type, event.geofence.name])).toEqual([
      ['geofence.enter', 'Lobby'],
    ]);
    const bad = await t.http.post('/api/v1/realtime/scans?return_events=perhaps').set(device).send(scans);
    expect(bad.status).toBe(400);
  });
});

function beaconOf(key: string): { uuid: string; major: number; minor: number } {
  const [uuid, major, minor] = key.split(':');
  return { uuid: uuid.toUpperCase(), major: Number(major), minor: Number(minor) };
}
