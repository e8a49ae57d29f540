import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../support/admin';
import { createOrganization, TestOrganization } from '../support/auth';
import { createBuilding, createFloor } from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';
import { ApiPermission } from '../../src/access/permissions';
import { CredentialKind, Principal } from '../../src/access/principal';
import { Role } from '../../src/access/roles';
import { ScanPositioningService } from '../../src/infrastructure/scan-positioning.service';

describe('scan positioning across buildings', () => {
  let t: TestApp;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, 'Scan buildings org');
  });
  afterAll(async () => t?.close());

  describe('scan positioning: the building of a scan', () => {
    it('counts a transmitter listed in two buildings for both, not for whichever row came last', async () => {
      const admin = (await login(t, org.email, org.password)).auth;
      const place = async () => {
        const building = await createBuilding(t, admin);
        return { building, floor: await createFloor(t, admin, building.id) };
      };
      const b = await place();
      const a = await place();
      const ap = (floorId: number, bssid: string) => ({ floor_id: floorId, bssid, x: 5, y: 5 });
      // The same access point listed in both buildings (B first), and one more only in B.
      await t.http.post('/api/v1/infrastructure/wifi').set(admin).send(ap(b.floor.id, 'aa:bb:cc:00:00:01')).expect(201);
      await t.http.post('/api/v1/infrastructure/wifi').set(admin).send(ap(a.floor.id, 'aa:bb:cc:00:00:01')).expect(201);
      await t.http.post('/api/v1/infrastructure/wifi').set(admin).send(ap(b.floor.id, 'aa:bb:cc:00:00:02')).expect(201);
      const principal: Principal = {
        userId: org.adminId,
        organizationId: org.organizationId,
        email: org.email,
        role: Role.AdminOrg,
        permission: ApiPermission.Positioning,
        credential: CredentialKind.ApiKey,
        apiKeyId: null,
        sessionId: null,
        buildingIds: null,
      } as Principal;
      const result = await t.app.get(ScanPositioningService).estimateBatch(principal, [
        {
          device_id: 'tag',
          time: Date.now(),
          wifi: [
            { bssid: 'aa:bb:cc:00:00:01', rssi: -40 },
            { bssid: 'aa:bb:cc:00:00:02', rssi: -60 },
          ],
        },
      ]);
      expect(result.rejected).toEqual([]);
      expect(result.fixes[0]).toMatchObject({ building_id: b.building.id, floor_id: b.floor.id, transmitters_used: 2 });
    });
  });
});
