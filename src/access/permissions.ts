/** API permission levels of contract 2.3, weakest to strongest, plus `disabled`. */
export enum ApiPermission {
  Disabled = 'disabled',
  Positioning = 'positioning',
  ReadOnly = 'read-only',
  CartographyReadWrite = 'cartography-read-write',
  ReadWrite = 'read-write',
}

export const API_PERMISSIONS = Object.values(ApiPermission);

/** What a route does, as far as permissions are concerned. Every route declares one. */
export enum AccessScope {
  /** Any valid credential (for example the API version). */
  Authenticated = 'authenticated',
  /** GET of cartography: buildings, floors, POIs, categories, paths, geofences, images. */
  CartographyRead = 'cartography:read',
  /** Any other GET. */
  Read = 'read',
  /** Writes to buildings, floors, POIs, categories, paths, images and geofences. */
  CartographyWrite = 'cartography:write',
  /** Reporting realtime positions. */
  PositionsWrite = 'positions:write',
  /** Any other write. */
  Write = 'write',
}

const GRANTS: Record<ApiPermission, ReadonlySet<AccessScope>> = {
  [ApiPermission.Disabled]: new Set(),
  [ApiPermission.Positioning]: new Set([AccessScope.Authenticated, AccessScope.CartographyRead, AccessScope.PositionsWrite]),
  [ApiPermission.ReadOnly]: new Set([AccessScope.Authenticated, AccessScope.CartographyRead, AccessScope.Read]),
  [ApiPermission.CartographyReadWrite]: new Set([AccessScope.Authenticated, AccessScope.CartographyRead, AccessScope.Read, AccessScope.CartographyWrite]),
  [ApiPermission.ReadWrite]: new Set(Object.values(AccessScope)),
};

/** The permission table of contract 2.3, in one place. */
export function permissionAllows(permission: ApiPermission, scope: AccessScope): boolean {
  return Object.hasOwn(GRANTS, permission) && GRANTS[permission].has(scope);
}

export function isApiPermission(value: unknown): value is ApiPermission {
  return typeof value === 'string' && (API_PERMISSIONS as string[]).includes(value);
}
