import { advertisedIds, hexBytes } from './advertisement';

/**
 * Tag identities (issue 39): what a tracked tag advertises, and the canonical keys the server looks
 * up. A device's `tag` identity (the devices API's wire shape, plus Eddystone-UID) gives one or more
 * keys; what a gateway reports about an advertiser gives one or more keys; the two match when they
 * share a key. Unknown advertisers (no key in the organization's tag list) are only counted.
 *
 * Keys:
 * - `mac:aabbccddeeff`: 12 lowercase hex digits, no separators.
 * - `ibeacon:{uuid}:{major}:{minor}`: uuid lowercase with dashes (8-4-4-4-12), major/minor decimal.
 * - `eddystone:{namespace}:{instance}`: 20 and 12 lowercase hex digits.
 * - `espresense:{id}`: an ESPresense device id, lowercased (`watch:darrell`, `irk:…`, `node:kitchen`).
 */
export type TagIdentity =
  { ibeacon: { uuid: string; major: number; minor: number } } | { mac: string } | { espresense_id: string } | { eddystone: { namespace: string; instance: string } };

export type TagIdentityKey = `mac:${string}` | `ibeacon:${string}` | `eddystone:${string}` | `espresense:${string}`;

/** What a gateway says about one advertiser; every field optional. `observedKeys` turns it into keys. */
export interface ObservedTransmitter {
  /** An ESPresense device id (the `{id}` of `espresense/devices/{id}/{room}`). */
  espresenseId?: string;
  /** A Cartograph JSON `tag`: a MAC, `{uuid}:{major}:{minor}`, a canonical key or an ESPresense id. */
  tag?: string;
  /** iBeacon fields the gateway decoded itself (Minew's `ibeaconUuid`, `ibeaconMajor`, `ibeaconMinor`). */
  ibeacon?: { uuid: unknown; major: unknown; minor: unknown };
  /** The raw advertisement (AD structures), as hex or bytes: iBeacon and Eddystone-UID frames give keys. */
  raw?: string | Uint8Array;
  /** The advertiser's address (any MAC form). Last: it is often random. */
  mac?: string;
}

const MAC_SEPARATED = /^[0-9a-f]{2}([:-])(?:[0-9a-f]{2}\1){4}[0-9a-f]{2}$/i;
const MAC_BARE = /^[0-9a-f]{12}$/i;
const UUID_DASHED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_BARE = /^[0-9a-f]{32}$/i;
const UUID_PATTERN = '[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}';
/** ESPresense's `iBeacon:%s-%u-%u` (src/BleFingerprint.cpp): the proximity uuid, then major and minor in decimal. */
const ESPRESENSE_IBEACON = new RegExp(`^ibeacon:(${UUID_PATTERN})-(\\d{1,5})-(\\d{1,5})$`, 'i');
/** ESPresense's `eddy:` id: 11 namespace bytes (byte 6 printed twice, a firmware slip) or 10, a dash, 6 instance bytes. */
const ESPRESENSE_EDDYSTONE = /^eddy:([0-9a-f]{20}|[0-9a-f]{22})-([0-9a-f]{12})$/i;
/** A Cartograph `tag` of the form `{uuid}:{major}:{minor}`. */
const CARTOGRAPH_IBEACON = new RegExp(`^(${UUID_PATTERN}):(\\d{1,5}):(\\d{1,5})$`, 'i');
/**
 * The ESPresense id prefixes followed by the advertiser's MAC (`setId("tile:" + getMac())` and the like in
 * ESPresense's src/BleFingerprint.cpp): such an id also yields the `mac:` key.
 */
const ESPRESENSE_MAC_PREFIXES = new Set([
  'known',
  'tile',
  'sonos',
  'itag',
  'trackr',
  'tractive',
  'vanmoof',
  'meater',
  'nut',
  'flora',
  'dexa',
  'garmin',
  'itrack',
  'mifit',
  'samsung',
  'mitherm',
]);
/** At most this long: ESPresense's longest generated id (`iBeacon:{uuid}-65535-65535`) is 56 characters. */
const MAX_ID_LENGTH = 200;

/** Any case, with `:` or `-` separators (one kind) or none, 12 hex digits → `aabbccddeeff`; anything else → null. */
export function normaliseMac(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (MAC_BARE.test(text)) return text.toLowerCase();
  if (MAC_SEPARATED.test(text)) return text.replace(/[:-]/g, '').toLowerCase();
  return null;
}

/** A 128-bit uuid with or without its dashes, any case → lowercase with dashes; anything else → null. */
export function normaliseUuid(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const hex = UUID_BARE.test(text) ? text : UUID_DASHED.test(text) ? text.replace(/-/g, '') : null;
  if (hex === null) return null;
  const h = hex.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const isUint16 = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffff;
const hexOfLength = (value: unknown, digits: number): string | null =>
  typeof value === 'string' && value.length === digits && /^[0-9a-f]+$/i.test(value) ? value.toLowerCase() : null;

export function ibeaconKey(uuid: unknown, major: unknown, minor: unknown): TagIdentityKey | null {
  const canonical = normaliseUuid(uuid);
  if (canonical === null || !isUint16(major) || !isUint16(minor)) return null;
  return `ibeacon:${canonical}:${major}:${minor}`;
}

export function eddystoneKey(namespace: unknown, instance: unknown): TagIdentityKey | null {
  const ns = hexOfLength(namespace, 20);
  const id = hexOfLength(instance, 12);
  return ns === null || id === null ? null : `eddystone:${ns}:${id}`;
}

export function macKey(mac: unknown): TagIdentityKey | null {
  const canonical = normaliseMac(mac);
  return canonical === null ? null : `mac:${canonical}`;
}

/** A usable ESPresense id: trimmed, not empty, no MQTT topic separator or wildcard, no control character. */
export function normaliseEspresenseId(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text.length === 0 || text.length > MAX_ID_LENGTH || /[/#+\u0000-\u001f\u007f]/.test(text)) return null;
  return text;
}

/**
 * The keys of an ESPresense device id: what the id says about the advertiser first (`iBeacon:{uuid}-{major}-{minor}`
 * → the ibeacon key, `eddy:…` → the eddystone key, a MAC or `known:{mac}`, `tile:{mac}`… → the mac key), then
 * `espresense:{id}` itself. Empty for an unusable id.
 */
export function espresenseKeys(id: unknown): TagIdentityKey[] {
  const text = normaliseEspresenseId(id);
  if (text === null) return [];
  const keys: TagIdentityKey[] = [];
  const ibeacon = ESPRESENSE_IBEACON.exec(text);
  if (ibeacon) push(keys, ibeaconKey(ibeacon[1], Number(ibeacon[2]), Number(ibeacon[3])));
  const eddy = ESPRESENSE_EDDYSTONE.exec(text);
  if (eddy) {
    // The firmware prints service-data bytes 2..6, 6 again, 7..11 as the namespace: drop the repeated byte.
    const printed = eddy[1];
    const namespace = printed.length === 22 ? printed.slice(0, 10) + printed.slice(12) : printed;
    if (printed.length === 20 || printed.slice(8, 10).toLowerCase() === printed.slice(10, 12).toLowerCase()) push(keys, eddystoneKey(namespace, eddy[2]));
  }
  push(keys, macKey(text));
  const colon = text.indexOf(':');
  if (colon > 0 && ESPRESENSE_MAC_PREFIXES.has(text.slice(0, colon).toLowerCase())) push(keys, macKey(text.slice(colon + 1)));
  push(keys, `espresense:${text.toLowerCase()}`);
  return keys;
}

/**
 * The keys of a Cartograph JSON `tag`: a MAC (any form) → the mac key; `{uuid}:{major}:{minor}` → the ibeacon key;
 * a canonical key (`mac:…`, `ibeacon:…`, `eddystone:…`) → itself, normalised; anything else is an ESPresense id.
 */
export function cartographTagKeys(tag: unknown): TagIdentityKey[] {
  if (typeof tag !== 'string') return [];
  const text = tag.trim();
  const mac = macKey(text);
  if (mac !== null) return [mac];
  const ibeacon = CARTOGRAPH_IBEACON.exec(text);
  if (ibeacon) {
    const key = ibeaconKey(ibeacon[1], Number(ibeacon[2]), Number(ibeacon[3]));
    return key === null ? [] : [key];
  }
  const lower = text.toLowerCase();
  if (lower.startsWith('mac:') || lower.startsWith('eddystone:') || lower.startsWith('ibeacon:')) {
    const canonical = canonicalKey(text);
    if (canonical !== null) return [canonical];
    // `iBeacon:{uuid}-{major}-{minor}` is ESPresense's; any other malformed key is refused, not taken as an id.
    return ESPRESENSE_IBEACON.test(text) ? espresenseKeys(text) : [];
  }
  return espresenseKeys(text);
}

/** A canonical key typed by hand (`mac:AA:BB:…`, `ibeacon:{UUID}:1:2`, `eddystone:{ns}:{instance}`), normalised; else null. */
function canonicalKey(text: string): TagIdentityKey | null {
  const lower = text.toLowerCase();
  if (lower.startsWith('mac:')) return macKey(text.slice(4));
  if (lower.startsWith('ibeacon:')) {
    const parts = CARTOGRAPH_IBEACON.exec(text.slice(8));
    return parts ? ibeaconKey(parts[1], Number(parts[2]), Number(parts[3])) : null;
  }
  if (lower.startsWith('eddystone:')) {
    const [namespace, instance, extra] = text.slice(10).split(':');
    return extra === undefined ? eddystoneKey(namespace, instance) : null;
  }
  return null;
}

/** The canonical keys of a device's tag identity; empty when the identity is not valid. */
export function identityKeys(identity: TagIdentity): TagIdentityKey[] {
  const parsed = parseTagIdentity(identity);
  return parsed.ok ? parsed.keys : [];
}

/** Validates and normalises a `tag` identity from the wire (the devices API); never throws. */
export function parseTagIdentity(value: unknown): { ok: true; identity: TagIdentity; keys: TagIdentityKey[] } | { ok: false; reason: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'tag is not an object' };
  const fields = Object.keys(value);
  if (fields.length !== 1) return { ok: false, reason: 'tag must have exactly one of ibeacon, mac, espresense_id, eddystone' };
  const record = value as Record<string, unknown>;
  const inner = record[fields[0]];
  switch (fields[0]) {
    case 'mac': {
      const mac = normaliseMac(inner);
      return mac === null ? { ok: false, reason: 'tag.mac is not a MAC (12 hex digits)' } : { ok: true, identity: { mac }, keys: [`mac:${mac}`] };
    }
    case 'ibeacon': {
      if (typeof inner !== 'object' || inner === null) return { ok: false, reason: 'tag.ibeacon is not an object' };
      const { uuid, major, minor } = inner as Record<string, unknown>;
      const canonical = normaliseUuid(uuid);
      if (canonical === null) return { ok: false, reason: 'tag.ibeacon.uuid is not a uuid' };
      if (!isUint16(major) || !isUint16(minor)) return { ok: false, reason: 'tag.ibeacon major and minor must be integers 0..65535' };
      return { ok: true, identity: { ibeacon: { uuid: canonical, major, minor } }, keys: [`ibeacon:${canonical}:${major}:${minor}`] };
    }
    case 'espresense_id': {
      const id = normaliseEspresenseId(inner);
      if (id === null) return { ok: false, reason: 'tag.espresense_id is empty, too long or contains / + # or a control character' };
      return { ok: true, identity: { espresense_id: id }, keys: espresenseKeys(id) };
    }
    case 'eddystone': {
      if (typeof inner !== 'object' || inner === null) return { ok: false, reason: 'tag.eddystone is not an object' };
      const { namespace, instance } = inner as Record<string, unknown>;
      const key = eddystoneKey(namespace, instance);
      if (key === null) return { ok: false, reason: 'tag.eddystone needs namespace (20 hex digits) and instance (12 hex digits)' };
      return { ok: true, identity: { eddystone: { namespace: String(namespace).toLowerCase(), instance: String(instance).toLowerCase() } }, keys: [key] };
    }
    default:
      return { ok: false, reason: `tag.${fields[0]} is not an identity (ibeacon, mac, espresense_id, eddystone)` };
  }
}

/**
 * The keys of what a gateway reports, the strongest claim first: the gateway's decoded iBeacon fields, the
 * Cartograph tag, the ESPresense id, the iBeacon and Eddystone-UID frames of the raw advertisement, and last the
 * advertiser's MAC. No duplicates.
 */
export function observedKeys(observed: ObservedTransmitter): TagIdentityKey[] {
  const keys: TagIdentityKey[] = [];
  if (observed.ibeacon !== undefined) push(keys, ibeaconKey(observed.ibeacon.uuid, observed.ibeacon.major, observed.ibeacon.minor));
  if (observed.tag !== undefined) for (const key of cartographTagKeys(observed.tag)) push(keys, key);
  if (observed.espresenseId !== undefined) for (const key of espresenseKeys(observed.espresenseId)) push(keys, key);
  if (observed.raw !== undefined) {
    const bytes = typeof observed.raw === 'string' ? hexBytes(observed.raw) : observed.raw;
    if (bytes !== null) {
      const ids = advertisedIds(bytes);
      if (ids.ibeacon) push(keys, ibeaconKey(ids.ibeacon.uuid, ids.ibeacon.major, ids.ibeacon.minor));
      if (ids.eddystone) push(keys, eddystoneKey(ids.eddystone.namespace, ids.eddystone.instance));
    }
  }
  if (observed.mac !== undefined) push(keys, macKey(observed.mac));
  return keys;
}

/** Whether an observation (its keys) is of this tag identity. */
export function matchesIdentity(identity: TagIdentity, keys: readonly TagIdentityKey[]): boolean {
  return identityKeys(identity).some((key) => keys.includes(key));
}

function push(keys: TagIdentityKey[], key: TagIdentityKey | null): void {
  if (key !== null && !keys.includes(key)) keys.push(key);
}
