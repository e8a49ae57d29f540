import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export const API_KEY_CIPHER = Symbol('API_KEY_CIPHER');

const FORMAT_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals the secrets of positioning keys (readable again by their owner, contract section 10)
 * with AES-256-GCM. The AES key is derived with HKDF-SHA256 from the server secret, so one
 * configured secret can serve several purposes without any of them revealing another. The
 * key's row id is authenticated with it, so a sealed secret copied onto another row does not
 * open. Stored as `v1.<iv>.<ciphertext>.<tag>` (base64url).
 */
export class ApiKeyCipher {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    this.key = Buffer.from(hkdfSync('sha256', Buffer.from(serverSecret, 'utf8'), Buffer.from('cartograph'), Buffer.from('positioning-api-keys/v1'), 32));
  }

  seal(secret: string, keyId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(keyId, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [FORMAT_VERSION, iv, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  /** The secret, or null when it was sealed under another server secret or tampered with. */
  open(sealed: string, keyId: string): string | null {
    const [version, iv, ciphertext, tag, ...rest] = sealed.split('.');
    if (version !== FORMAT_VERSION || rest.length > 0 || !iv || !ciphertext || !tag) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(keyId, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
