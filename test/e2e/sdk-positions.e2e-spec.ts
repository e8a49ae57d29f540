import SitumSDK from '@situm/sdk-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../src/access/roles';
import { asBearer, passwordTokens } from '../support/auth';
import { Cartographer, createSite, signUp, Site } from '../support/cartography';
import { fix, report } from '../support/positions';
import { listenOnLoopback, loggedRequestsSince } from '../support/sdk-client';
import { createUser } from '../support/users';
import { createTestApp, TestApp } from '../support/test-app';

/** Realtime positions and the trajectory report through the official client, unchanged. */

type Loose = Record<string, any>;

describe('@situm/sdk-js realtime and reports against Cartograph', () => {
  let t: TestApp;
  let sdk: SitumSDK;
  let a: Cartographer;
  let site: Site;
  let other: Site;
  let userId: string;
  const t0 = Date.now() - 30_000;

  beforeAll(async () => {
    t = await createTestApp();
    const domain = await listenOnLoopback(t);
    a = await signUp(t, 'SDK positions');
    site = await createSite(t, a.auth);
    other = await createSite(t, a.auth);
    const user = await createUser(t, a.org.organizationId, Role.User);
    userId = user.id;
    const userAuth = asBearer((await passwordTokens(t, user.email, user.password)).access_token);
    await report(t, a.auth, [
      fix('sdk-1', { time: t0, floor_id: site.floor.id, lat: 42.8723, lng: -8.5633, accuracy: 2.5, yaw: 1.5, device_code: 'Pixel' }),
      fix('sdk-1', { time: t0 + 90_000 - 60_000, floor_id: site.floor.id, lat: 42.8724, lng: -8.5634, accuracy: 3 }),
      fix('sdk-2', { time: t0 + 1000, lat: 40.1, lng: -3.7, accuracy: 12 }),
      fix('sdk-stale', { time: t0 - 600_000, floor_id: other.floor.id, lat: 41, lng: 2, accuracy: 5 }),
    ]);
    await report(t, userAuth, [fix('sdk-3', { time: t0 + 2000, floor_id: other.floor.id, lat: 42.5, lng: -8.1, accuracy: 7 })]);
    sdk = new SitumSDK({ domain, auth: { username: a.org.email, password: a.org.password } });
  });
  afterAll(async () => t?.close());

  const idsOf = (positions: Loose) => (positions.features as Loose[]).map((feature) => feature.id);

  it('realtime.getPositions() with no filter sends no query string and returns the live devices', async () => {
    const mark = t.requestLogs.length;
    const positions = (await sdk.realtime.getPositions()) as Loose;
    expect(loggedRequestsSince(t, mark).filter((line) => line.route?.includes('realtime'))).toEqual([{ method: 'GET', route: '/api/v1/realtime/positions', status: 200 }]);
    expect(positions.type).toBe('FeatureCollection');
    expect(idsOf(positions)).toEqual(['sdk-1', 'sdk-2', 'sdk-3']);
    const [first] = positions.features as Loose[];
    expect(first.geometry).toEqual({ type: 'Point', coordinates: [42.8724, -8.5634] });
    expect(first.userId).toBe(a.org.adminId);
    expect(first.properties).toMatchObject({ floorId: site.floor.id, buildingId: site.building.id, accuracy: 3, poiId: null });
    const info = (positions.devicesInfo as Loose[])[0];
    expect(info).toMatchObject({ id: 'sdk-1', code: 'Pixel', organizationId: a.org.organizationId, userId: a.org.adminId });
    // The client's mapper drops these three.
    expect(info).not.toHaveProperty('groups');
    expect(info).not.toHaveProperty('buildings');
    expect(info).not.toHaveProperty('organization');
  });

  it('realtime.getPositions() passes each filter', async () => {
    expect(idsOf(await sdk.realtime.getPositions({ buildingIds: [other.building.id] } as never))).toEqual(['sdk-3']);
    expect(idsOf(await sdk.realtime.getPositions({ buildingIds: [site.building.id, other.building.id] } as never))).toEqual(['sdk-1', 'sdk-3']);
    expect(idsOf(await sdk.realtime.getPositions({ userIds: [userId] } as never))).toEqual(['sdk-3']);
    expect(idsOf(await sdk.realtime.getPositions({ deviceIds: ['sdk-2', 'sdk-3'] } as never))).toEqual(['sdk-2', 'sdk-3']);
    expect(idsOf(await sdk.realtime.getPositions({ indoor: true } as never))).toEqual(['sdk-1', 'sdk-3']);
    const outdoor = (await sdk.realtime.getPositions({ indoor: false } as never)) as Loose;
    expect(idsOf(outdoor)).toEqual(['sdk-2']);
    expect(outdoor.features[0]).toMatchObject({ geometry: { coordinates: [40.1, -3.7] }, properties: { accuracy: 12, floorId: null, buildingId: null } });
    const wide = (await sdk.realtime.getPositions({ maxSecThreshold: 3600 } as never)) as Loose;
    expect(idsOf(wide)).toEqual(['sdk-1', 'sdk-2', 'sdk-3', 'sdk-stale']);
    expect(wide.features[3]).toMatchObject({ geometry: { coordinates: [41, 2] }, properties: { accuracy: 5, floorId: other.floor.id } });
  });

  it('reports.getTrajectory() returns the rows with their session marks', async () => {
    const rows = (await sdk.reports.getTrajectory({
      fromDate: new Date(t0 - 1000),
      toDate: new Date(Date.now() + 1000),
      buildingId: site.building.id,
    } as never)) as Loose[];
    expect(rows).toEqual([
      expect.objectContaining({
        timestamp: new Date(t0).toISOString(),
        sessionMark: 1,
        floorId: site.floor.id,
        userId: a.org.adminId,
        deviceId: 'sdk-1',
        lat: 42.8723,
        lng: -8.5633,
        buildingId: site.building.id,
      }),
      expect.objectContaining({ timestamp: new Date(t0 + 30_000).toISOString(), sessionMark: 1, deviceId: 'sdk-1', lat: 42.8724, lng: -8.5634 }),
    ]);
    const byUser = (await sdk.reports.getTrajectory({
      fromDate: new Date(t0 - 1000),
      toDate: new Date(Date.now() + 1000),
      buildingId: other.building.id,
      userId,
    } as never)) as Loose[];
    expect(byUser).toEqual([expect.objectContaining({ deviceId: 'sdk-3', userId, lat: 42.5, lng: -8.1, sessionMark: 1 })]);
  });
});
