import { describe, expect, it } from 'vitest';
import { ApiPermission } from '../../access/permissions';
import { CredentialKind, Principal } from '../../access/principal';
import { Role } from '../../access/roles';
import { visibleBuildings } from './position-streams.service';

const principal = (buildingIds: number[] | null): Principal => ({
  userId: 'u',
  organizationId: 'o',
  email: 'e@x',
  role: Role.User,
  permission: ApiPermission.ReadOnly,
  credential: CredentialKind.PasswordToken,
  apiKeyId: null,
  sessionId: null,
  buildingIds,
});

describe('visibleBuildings', () => {
  it('an unrestricted caller sees what it asks for, or everything', () => {
    expect(visibleBuildings(principal(null), undefined)).toBeNull();
    expect([...visibleBuildings(principal(null), [3, 4])!]).toEqual([3, 4]);
  });

  it('a restricted caller sees its buildings only, whatever it asks for', () => {
    expect([...visibleBuildings(principal([1, 2]), undefined)!]).toEqual([1, 2]);
    expect([...visibleBuildings(principal([1, 2]), [2, 3])!]).toEqual([2]);
    expect([...visibleBuildings(principal([1, 2]), [3])!]).toEqual([]);
  });
});
