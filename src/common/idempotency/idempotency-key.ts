import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

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
 * Answers are sealed with AES-256-GCM under a key derived from the JWT secret (shared by
 * every instance): some carry secrets shown once, such as a new API key.
 */
export class ResponseSealer {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'cartograph', 'idempotency responses', 32));
  }

  seal(response: StoredResponse): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(JSON.stringify(response), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
  }

  open(sealed: string): StoredResponse {
    const bytes = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')) as StoredResponse;
  }
}
