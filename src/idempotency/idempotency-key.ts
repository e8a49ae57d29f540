import { createHash } from 'node:crypto';
import { SecretBox } from '../common/crypto/secret-box';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long an answer is kept for replay. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** How long one attempt holds its key; a longer request could be executed twice. */
export const IDEMPOTENCY_LEASE_MS = 30_000;

/** 1 to 255 visible ASCII characters (a UUID is the usual choice). */
export const isValidIdempotencyKey = (key: string): boolean => /^[\x21-\x7e]{1,255}$/.test(key);

const sha256 = (...parts: string[]): string => {
  const hash = createHash('sha256');
  // Length-prefixed so that no two different part lists hash alike.
  for (const part of parts) hash.update(`${Buffer.byteLength(part)}:`).update(part);
  return hash.digest('hex');
};

/** Who may replay an answer: the same organization, credential owner, method and path. */
export function idempotencyScope(organizationId: string, ownerId: string, method: string, path: string, key: string): string {
  return sha256(organizationId, ownerId, method, path, key);
}

/** What makes two requests "the same": query and body (for uploads, their length). */
export function requestFingerprint(query: string, body: unknown, uploadLength?: string): string {
  return uploadLength !== undefined ? sha256('upload', query, uploadLength) : sha256('json', query, JSON.stringify(body ?? null));
}

/** A stored answer, as replayed. */
export interface StoredResponse {
  status: number;
  contentType: string | null;
  etag: string | null;
  /** Base64 of the body bytes; null for an empty body. */
  body: string | null;
}

/**
 * Answers are sealed (some carry secrets shown once, such as a new API key), bound to the
 * key's scope so one stored answer cannot be replayed under another.
 */
export class ResponseSealer {
  private readonly box: SecretBox;

  constructor(sealingSecret: string) {
    this.box = new SecretBox(sealingSecret, 'idempotency-responses/v1');
  }

  seal(response: StoredResponse, scope: string): string {
    return this.box.seal(JSON.stringify(response), scope);
  }

  /** null when it cannot be opened (sealed under another secret): the caller runs the request afresh. */
  open(sealed: string, scope: string): StoredResponse | null {
    const text = this.box.open(sealed, scope);
    return text === null ? null : (JSON.parse(text) as StoredResponse);
  }
}
