import { describe, expect, it } from 'vitest';
import { checkAccess } from './access-policy';
import { AccessScope, ApiPermission } from './permissions';
import { CredentialKind } from './principal';
import { Role } from './roles';

type Caller = Parameters<typeof checkAccess>[0];

const caller = (overrides: Partial<Caller> = {}): Caller => ({
  permission: ApiPermission.ReadWrite,
  role: Role.User,
  credential: CredentialKind.PasswordToken,
  ...overrides,
});

const ALL_CREDENTIALS = Object.values(CredentialKind);
const ALL_SCOPES = Object.values(AccessScope);

describe('checkAccess', () => {
  it('grants a read-write password token on a plain write', () => {
    expect(checkAccess(caller(), { scope: AccessScope.Write })).toBeNull();
  });

  describe('disabled credentials', () => {
    it.each(ALL_SCOPES)('are refused on %s, whatever the credential kind and role', (scope) => {
      for (const credential of ALL_CREDENTIALS) {
        for (const role of [Role.AdminOrg, Role.User]) {
          const reason = checkAccess(caller({ permission: ApiPermission.Disabled, credential, role }), { scope });
          expect(reason).toBe('These credentials are disabled');
        }
      }
    });

    it('are refused even when the route asks for no role and no user credentials', () => {
      expect(checkAccess(caller({ permission: ApiPermission.Disabled }), { scope: AccessScope.Authenticated })).not.toBeNull();
    });
  });

  describe('userCredentials', () => {
    it('passes a JWT obtained from a password', () => {
      expect(checkAccess(caller({ credential: CredentialKind.PasswordToken }), { scope: AccessScope.Write, userCredentials: true })).toBeNull();
    });

    it.each([CredentialKind.ApiKey, CredentialKind.ApiKeyToken, CredentialKind.Password])('refuses %s, even with read-write', (credential) => {
      const reason = checkAccess(caller({ credential, permission: ApiPermission.ReadWrite, role: Role.AdminOrg }), {
        scope: AccessScope.Write,
        userCredentials: true,
        role: Role.AdminOrg,
      });
      expect(reason).toMatch(/own e-mail and password/);
    });

    it('does not matter when the route does not ask for it', () => {
      for (const credential of ALL_CREDENTIALS) {
        expect(checkAccess(caller({ credential }), { scope: AccessScope.Write })).toBeNull();
        expect(checkAccess(caller({ credential }), { scope: AccessScope.Write, userCredentials: false })).toBeNull();
      }
    });
  });

  describe('role', () => {
    it('refuses a USER on an ADMIN_ORG route', () => {
      expect(checkAccess(caller({ role: Role.User }), { scope: AccessScope.Write, role: Role.AdminOrg })).toBe('This operation needs the ADMIN_ORG role');
    });

    it('grants an ADMIN_ORG on an ADMIN_ORG route', () => {
      expect(checkAccess(caller({ role: Role.AdminOrg }), { scope: AccessScope.Write, role: Role.AdminOrg })).toBeNull();
    });

    it('does not matter when the route asks for no role', () => {
      expect(checkAccess(caller({ role: Role.User }), { scope: AccessScope.Read })).toBeNull();
      expect(checkAccess(caller({ role: Role.AdminOrg }), { scope: AccessScope.Read })).toBeNull();
    });

    it('does not let an ADMIN_ORG role compensate for a weak permission', () => {
      const reason = checkAccess(caller({ role: Role.AdminOrg, permission: ApiPermission.ReadOnly, credential: CredentialKind.ApiKey }), {
        scope: AccessScope.Write,
        role: Role.AdminOrg,
      });
      expect(reason).toBe('The "read-only" permission does not allow this operation');
    });
  });

  describe('scope', () => {
    it.each([
      [ApiPermission.ReadOnly, AccessScope.Write],
      [ApiPermission.ReadOnly, AccessScope.CartographyWrite],
      [ApiPermission.ReadOnly, AccessScope.PositionsWrite],
      [ApiPermission.Positioning, AccessScope.Read],
      [ApiPermission.Positioning, AccessScope.CartographyWrite],
      [ApiPermission.CartographyReadWrite, AccessScope.Write],
    ])('refuses %s on %s with a reason naming the permission', (permission, scope) => {
      expect(checkAccess(caller({ permission, credential: CredentialKind.ApiKey }), { scope })).toBe(`The "${permission}" permission does not allow this operation`);
    });

    it.each([
      [ApiPermission.ReadOnly, AccessScope.Read],
      [ApiPermission.ReadOnly, AccessScope.CartographyRead],
      [ApiPermission.Positioning, AccessScope.CartographyRead],
      [ApiPermission.Positioning, AccessScope.PositionsWrite],
      [ApiPermission.CartographyReadWrite, AccessScope.CartographyWrite],
      [ApiPermission.ReadWrite, AccessScope.Write],
    ])('grants %s on %s', (permission, scope) => {
      expect(checkAccess(caller({ permission, credential: CredentialKind.ApiKey }), { scope })).toBeNull();
    });
  });
});
