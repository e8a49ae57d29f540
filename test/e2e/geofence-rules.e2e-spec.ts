import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../support/admin';
import { createOrganization, TestOrganization } from '../support/auth';
import { createBuilding, createFloor, createGeofence } from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';

describe('the rules of a geofence', () => {
  let t: TestApp;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, 'Geofence rules org');
  });
  afterAll(async () => t?.close());

  describe('geofence rules of a deleted fence', () => {
    it('refuses to drop them (409) as it refuses to change them, and keeps them', async () => {
      const admin = (await login(t, org.email, org.password)).auth;
      const building = await createBuilding(t, admin);
      const floor = await createFloor(t, admin, building.id);
      const fence = await createGeofence(t, admin, { buildingId: building.id, floorId: floor.id });
      await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(admin).send({ buffer_m: 4 }).expect(200);
      await t.http.delete(`/api/v1/geofences/${fence.id}`).set(admin).expect(204);
      const dropped = await t.http.delete(`/api/v1/geofences/${fence.id}/rules`).set(admin);
      expect(dropped.status).toBe(409);
      expect(dropped.body).toMatchObject({ status: 409, code: 'conflict' });
      const rules = await t.http.get(`/api/v1/geofences/${fence.id}/rules`).set(admin).expect(200);
      expect(rules.body.overrides).toEqual({ buffer_m: 4 });
    });
  });
});
