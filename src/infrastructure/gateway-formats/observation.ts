import { advertisedIds, hexBytes, MAX_ADVERTISEMENT_BYTES } from './advertisement';
import { normaliseMac, TagIdentityKey } from './identity';

/** One advertisement heard by one gateway: what every format is turned into (issue 39). */
export interface Observation {
  /** The gateway's hardware id, normalised (normaliseHardwareId): a MAC as `aabbccddeeff`, a node name lowercased. */
  receiver: string;
  /** The strongest key of the advertiser (keys[0]). */
  transmitter: TagIdentityKey;
  /** Every key the advertiser is known by, transmitter first; the server matches any of them against its tag list. */
  keys: readonly TagIdentityKey[];
  /** dBm, -127..20. */
  rssi: number;
  /** Epoch ms: the message's own time where present and plausible, else the arrival time (`now`). */
  time: number;
  /** The advertiser's power at 1 m in dBm where the message gives it (ESPresense `rssi@1m`, Minew `ibeaconTxPower`, the frame). */
  txPower?: number;
  /** The raw advertising data as lowercase hex, where the format carries it. */
  raw?: string;
  /** Identifies this observation across redeliveries of the same message (Ruuvi's batch nonce and the tag). */
  dedupKey?: string;
  /**
   * Set when the advertiser is itself a gateway (ESPresense `node:{id}`): that gateway's hardware id. Node-to-node
   * links are what a later calibration step fits the radio model on (ESPresense-companion does it with
   * `espresense/devices/node:{tx}/{rx}`, see espresense.ts).
   */
  transmitterNode?: string;
}

/** A message read: its observations, and the records of a batch that were dropped (with the last reason). */
export interface ParsedMessage {
  ok: true;
  receiver: string;
  observations: Observation[];
  rejected: number;
  lastReason?: string;
  /** Set for a message that is understood and carries no observation (a status or telemetry message): why. */
  ignored?: string;
}

/** A message not read at all, with a human-readable reason; `receiver` when the gateway is known anyway. */
export interface RejectedMessage {
  ok: false;
  reason: string;
  receiver?: string;
  /** A message on a topic of the family that carries nothing to count against a gateway (ESPresense settings). */
  ignored?: true;
}

export type ParseResult = ParsedMessage | RejectedMessage;

export interface ParseLimits {
  /** Largest payload in bytes (issue 39's default: 256 KiB). Checked on bytes and strings, not on a parsed body. */
  maxBytes: number;
  /** Most records in one batch (Ruuvi tags, Minew records, Cartograph observations); beyond it the message is rejected. */
  maxRecords: number;
  /** A message time older than now by more than this is not believed (the gateway's clock is wrong). */
  maxPastMs: number;
  /** A message time later than now by more than this is not believed. */
  maxFutureMs: number;
  /** A gateway clock within this of now is trusted; beyond it, a batch's record times are taken relative to its send time. */
  clockSkewMs: number;
}

export const DEFAULT_LIMITS: ParseLimits = { maxBytes: 256 * 1024, maxRecords: 10_000, maxPastMs: 10 * 60_000, maxFutureMs: 60_000, clockSkewMs: 5_000 };

export const MIN_RSSI = -127;
export const MAX_RSSI = 20;

export function limitsOf(limits: Partial<ParseLimits> | undefined): ParseLimits {
  return { ...DEFAULT_LIMITS, ...limits };
}

/** A value quoted for a reason: strings as JSON (cut at 80 characters), anything else by its type. */
export const quote = (value: unknown): string =>
  typeof value === 'string' ? JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value) : value === null ? 'null' : typeof value;

export const reject = (reason: string, receiver?: string): RejectedMessage => (receiver === undefined ? { ok: false, reason } : { ok: false, reason, receiver });

/** Runs a parser, turning anything it throws (it should not) into a rejection. */
export function guarded(run: () => ParseResult): ParseResult {
  try {
    return run();
  } catch (error) {
    return reject(`internal error while parsing: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A gateway hardware id: a MAC as `aabbccddeeff`, else the text trimmed and lowercased (1-128 of a-z 0-9 . _ : @ ~ -); else null. */
export function normaliseHardwareId(value: unknown): string | null {
  const mac = normaliseMac(value);
  if (mac !== null) return mac;
  if (typeof value !== 'string') return null;
  const text = value.trim().toLowerCase();
  return /^[a-z0-9._:@~-]{1,128}$/.test(text) ? text : null;
}

/**
 * The receiver of a message whose body names its gateway (`gw_mac`, Minew's Gateway record) and whose topic or
 * path may too: the topic's or path's id when given (it is what the gateway is registered by), the body's
 * otherwise; two MACs that differ are a misconfigured or spoofing gateway, refused.
 */
export function receiverOf(declared: string | undefined, fromBody: string | null, bodyField: string): { ok: true; receiver: string } | RejectedMessage {
  if (declared !== undefined) {
    const receiver = normaliseHardwareId(declared);
    if (receiver === null) return reject(`hardware id ${quote(declared)} is not a MAC or a name of a-z 0-9 . _ : @ ~ -`);
    if (fromBody !== null && normaliseMac(receiver) !== null && receiver !== fromBody)
      return reject(`${bodyField} ${fromBody} does not match the hardware id ${receiver}`, receiver);
    return { ok: true, receiver };
  }
  if (fromBody === null) return reject(`${bodyField} is missing or not a MAC`);
  return { ok: true, receiver: fromBody };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

/**
 * A payload as JSON: bytes (a Buffer is a Uint8Array) and strings are size-checked, decoded as UTF-8 and parsed;
 * anything else is taken as an already-parsed body (an HTTP framework's JSON).
 */
export function readJson(payload: unknown, limits: ParseLimits): { ok: true; value: unknown } | { ok: false; reason: string } {
  let text: string;
  if (payload instanceof Uint8Array) {
    if (payload.length > limits.maxBytes) return { ok: false, reason: `payload larger than ${limits.maxBytes} bytes` };
    try {
      text = utf8.decode(payload);
    } catch {
      return { ok: false, reason: 'payload is not UTF-8' };
    }
  } else if (typeof payload === 'string') {
    if (payload.length > limits.maxBytes || (payload.length * 3 > limits.maxBytes && encoder.encode(payload).length > limits.maxBytes)) {
      return { ok: false, reason: `payload larger than ${limits.maxBytes} bytes` };
    }
    text = payload;
  } else {
    return payload === undefined ? { ok: false, reason: 'payload is empty' } : { ok: true, value: payload };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim().length === 0) return { ok: false, reason: 'payload is empty' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, reason: 'payload is not JSON' };
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field of a JSON object, own properties only (a tag keyed `constructor` or `__proto__` is data, not a prototype). */
export function field(record: Record<string, unknown>, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, name) ? record[name] : undefined;
}

type Read<T> = { ok: true; value: T } | { ok: false; reason: string };

export function readRssi(value: unknown, name = 'rssi'): Read<number> {
  if (value === undefined || value === null) return { ok: false, reason: `${name} missing` };
  if (typeof value !== 'number') return { ok: false, reason: `${name} is not a number` };
  if (!Number.isFinite(value)) return { ok: false, reason: `${name} is not a finite number` };
  if (value < MIN_RSSI || value > MAX_RSSI) return { ok: false, reason: `${name} ${value} is outside ${MIN_RSSI}..${MAX_RSSI} dBm` };
  return { ok: true, value };
}

/** A power at 1 m when it is a plausible dBm figure; else undefined (a bad one never costs the observation). */
export function optionalPower(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= MIN_RSSI && value <= MAX_RSSI ? value : undefined;
}

/** Raw advertising data: absent or "" → none; hex → lowercase hex and its frame's power; anything else → a reason. */
export function readRaw(value: unknown, name: string): Read<{ hex?: string; txPower?: number }> {
  if (value === undefined || value === null || value === '') return { ok: true, value: {} };
  if (typeof value !== 'string') return { ok: false, reason: `${name} is not a hex string` };
  const bytes = hexBytes(value);
  if (bytes === null) {
    return { ok: false, reason: value.length > 2 * MAX_ADVERTISEMENT_BYTES ? `${name} is longer than ${MAX_ADVERTISEMENT_BYTES} bytes` : `${name} is not a hex string` };
  }
  const ids = advertisedIds(bytes);
  return { ok: true, value: { hex: value.toLowerCase(), txPower: ids.ibeacon?.txPower ?? ids.eddystone?.txPower } };
}

const ISO = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * A time value → epoch ms and its resolution, or null: a number or numeric string is seconds below 1e11 (before
 * the year 5138), milliseconds below 1e14, microseconds below 1e17, else nanoseconds; an ISO-8601 string without a
 * zone is UTC. Whole seconds (a number of seconds, an ISO time without fractions) have a resolution of 1,000 ms,
 * an ISO time without seconds one of 60,000 ms.
 */
export function epochMs(value: unknown): { ms: number; resolution: number } | null {
  let n: number;
  let wholeSeconds = false;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && /^\d{1,20}(\.\d{1,9})?$/.test(value.trim())) n = Number(value.trim());
  else if (typeof value === 'string') {
    const iso = ISO.exec(value.trim());
    if (!iso) return null;
    const zone = iso[4] === undefined ? 'Z' : iso[4].length === 5 ? `${iso[4].slice(0, 3)}:${iso[4].slice(3)}` : iso[4].toUpperCase();
    const ms = Date.parse(`${iso[1]}T${iso[2]}${zone}`);
    if (!Number.isFinite(ms) || ms <= 0) return null;
    return { ms, resolution: iso[2].length === 5 ? 60_000 : iso[3] === undefined ? 1000 : 0 };
  } else return null;
  if (!Number.isFinite(n) || n <= 0) return null;
  if (n < 1e11) {
    wholeSeconds = Number.isInteger(n);
    n *= 1000;
  } else if (n >= 1e17) n /= 1e6;
  else if (n >= 1e14) n /= 1000;
  return { ms: n, resolution: wholeSeconds ? 1000 : 0 };
}

/**
 * The time of one record, epoch ms. `record` is when the gateway heard it, `sent` when the gateway sent the message
 * (Ruuvi's batch `timestamp`, its MQTT `gwts`), both as the gateway's clock reads them.
 * - The gateway's clock is off (sent differs from now by more than clockSkewMs): the record's age at sending,
 *   taken from now, if the age is plausible; else now.
 * - Else the record's time if within maxPastMs before and maxFutureMs after now (no later than now); for a time in
 *   whole seconds, now if now falls in that second, else the middle of the second.
 * - Else now.
 */
export function recordTime(record: unknown, sent: unknown, now: number, limits: ParseLimits): number {
  const heard = epochMs(record);
  const sentAt = epochMs(sent);
  if (heard !== null && sentAt !== null && Math.abs(sentAt.ms - now) > limits.clockSkewMs) {
    const age = sentAt.ms - heard.ms;
    return age >= -limits.clockSkewMs && age <= limits.maxPastMs ? Math.round(now - Math.max(0, age)) : now;
  }
  if (heard === null || heard.ms < now - limits.maxPastMs || heard.ms > now + limits.maxFutureMs) return now;
  if (heard.resolution > 0) return now >= heard.ms && now < heard.ms + heard.resolution ? now : Math.round(Math.min(now, heard.ms + heard.resolution / 2));
  return Math.round(Math.min(now, heard.ms));
}

/** Collects a batch's observations and its dropped records. */
export class Batch {
  readonly observations: Observation[] = [];
  rejected = 0;
  lastReason: string | undefined;

  constructor(readonly receiver: string) {}

  drop(reason: string): void {
    this.rejected += 1;
    this.lastReason = reason;
  }

  result(): ParsedMessage {
    const result: ParsedMessage = { ok: true, receiver: this.receiver, observations: this.observations, rejected: this.rejected };
    if (this.lastReason !== undefined) result.lastReason = this.lastReason;
    return result;
  }
}

/** An observation from its parts; undefined optional fields are left out. */
export function observation(parts: {
  receiver: string;
  keys: TagIdentityKey[];
  rssi: number;
  time: number;
  txPower?: number;
  raw?: string;
  dedupKey?: string;
  transmitterNode?: string;
}): Observation {
  const result: Observation = { receiver: parts.receiver, transmitter: parts.keys[0], keys: parts.keys, rssi: parts.rssi, time: parts.time };
  if (parts.txPower !== undefined) result.txPower = parts.txPower;
  if (parts.raw !== undefined) result.raw = parts.raw;
  if (parts.dedupKey !== undefined) result.dedupKey = parts.dedupKey;
  if (parts.transmitterNode !== undefined) result.transmitterNode = parts.transmitterNode;
  return result;
}

/** A batch's body read: its JSON, the limits it was read under and the receiver the path or topic declared (when it names one). */
export interface BatchJson {
  ok: true;
  value: unknown;
  limit: ParseLimits;
  declared: string | undefined;
}

/**
 * How a batch parser (a body over HTTP or MQTT, the hardware id from its path or topic when given) starts:
 * the clock checked, the limits resolved, the declared receiver normalised, the body read as JSON within them.
 */
export function readBatchJson(body: unknown, now: unknown, hardwareId: string | undefined, limits: Partial<ParseLimits> | undefined): BatchJson | RejectedMessage {
  const bad = badNow(now);
  if (bad) return bad;
  const limit = limitsOf(limits);
  const declared = hardwareId === undefined ? undefined : (normaliseHardwareId(hardwareId) ?? undefined);
  const json = readJson(body, limit);
  if (!json.ok) return reject(json.reason, declared);
  return { ok: true, value: json.value, limit, declared };
}

/** `now` as the parsers need it: finite epoch ms; else the reason. */
export function badNow(now: unknown): RejectedMessage | null {
  return typeof now === 'number' && Number.isFinite(now) && now > 0 ? null : reject('now is not a finite epoch ms');
}
