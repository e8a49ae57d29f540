import { describe, expect, it } from 'vitest';
import { AccessScope, API_PERMISSIONS, ApiPermission, isApiPermission, permissionAllows } from './permissions';

/**
 * Contract 2.3, written out by hand (not derived from the code):
 * - positioning: GETs of cartography and reporting positions;
 * - read-only: every GET;
 * - cartography-read-write: read-only plus writes to cartography;
 * - read-write: everything;
 * - disabled: nothing.
 */
const EXPECTED: Record<ApiPermission, Record<AccessScope, boolean>> = {
  [ApiPermission.Disabled]: {
    [AccessScope.Authenticated]: false,
    [AccessScope.CartographyRead]: false,
    [AccessScope.Read]: false,
    [AccessScope.CartographyWrite]: false,
    [AccessScope.PositionsWrite]: false,
    [AccessScope.Write]: false,
  },
  [ApiPermission.Positioning]: {
    [AccessScope.Authenticated]: true,
    [AccessScope.CartographyRead]: true,
    [AccessScope.Read]: false,
    [AccessScope.CartographyWrite]: false,
    [AccessScope.PositionsWrite]: true,
    [AccessScope.Write]: false,
  },
  [ApiPermission.ReadOnly]: {
    [AccessScope.Authenticated]: true,
    [AccessScope.CartographyRead]: true,
    [AccessScope.Read]: true,
    [AccessScope.CartographyWrite]: false,
    [AccessScope.PositionsWrite]: false,
    [AccessScope.Write]: false,
  },
  [ApiPermission.CartographyReadWrite]: {
    [AccessScope.Authenticated]: true,
    [AccessScope.CartographyRead]: true,
    [AccessScope.Read]: true,
    [AccessScope.CartographyWrite]: true,
    [AccessScope.PositionsWrite]: false,
    [AccessScope.Write]: false,
  },
  [ApiPermission.ReadWrite]: {
    [AccessScope.Authenticated]: true,
    [AccessScope.CartographyRead]: true,
    [AccessScope.Read]: true,
    [AccessScope.CartographyWrite]: true,
    [AccessScope.PositionsWrite]: true,
    [AccessScope.Write]: true,
  },
};

const ALL_PERMISSIONS = ['disabled', 'positioning', 'read-only', 'cartography-read-write', 'read-write'];
const ALL_SCOPES = ['authenticated', 'cartography:read', 'read', 'cartography:write', 'positions:write', 'write'];

describe('ApiPermission and AccessScope', () => {
  it('has exactly the wire values of contract 2.3', () => {
    expect([...API_PERMISSIONS].sort()).toEqual([...ALL_PERMISSIONS].sort());
    expect(Object.values(AccessScope).sort()).toEqual([...ALL_SCOPES].sort());
  });

  it('the expected table covers every permission and every scope', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...ALL_PERMISSIONS].sort());
    for (const row of Object.values(EXPECTED)) expect(Object.keys(row).sort()).toEqual([...ALL_SCOPES].sort());
  });
});

describe('permissionAllows', () => {
  const cases = Object.entries(EXPECTED).flatMap(([permission, row]) =>
    Object.entries(row).map(([scope, allowed]) => ({ permission: permission as ApiPermission, scope: scope as AccessScope, allowed })),
  );

  it.each(cases)('$permission on $scope → $allowed', ({ permission, scope, allowed }) => {
    expect(permissionAllows(permission, scope)).toBe(allowed);
  });

  it('refuses a permission that is not in the table', () => {
    expect(permissionAllows('admin' as ApiPermission, AccessScope.Read)).toBe(false);
    expect(permissionAllows(undefined as unknown as ApiPermission, AccessScope.Authenticated)).toBe(false);
  });

  it('refuses a scope that is not in the table, even to read-write', () => {
    expect(permissionAllows(ApiPermission.ReadWrite, 'delete-everything' as AccessScope)).toBe(false);
  });
});

describe('isApiPermission', () => {
  it.each(ALL_PERMISSIONS)('accepts %s', (value) => {
    expect(isApiPermission(value)).toBe(true);
  });

  it.each(['READ-ONLY', 'read_only', 'readonly', ' read-only', 'read-only ', 'write', 'admin', '', 'Disabled'])('rejects the string %j', (value) => {
    expect(isApiPermission(value)).toBe(false);
  });

  it.each([null, undefined, 1, true, {}, ['read-only'], { toString: () => 'read-only' }])('rejects the non-string %j', (value) => {
    expect(isApiPermission(value)).toBe(false);
  });
});
