import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const FORMAT_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals secrets the server must read back later (positioning keys, webhook signing secrets) with
 * AES-256-GCM. Each use gets its own key, derived with HKDF-SHA256 from the one configured server
 * secret and a purpose label, so no use can open another's secrets. The owning row's id is
 * authenticated with the secret, so a sealed value copied onto another row does not open.
 * Stored as `v1.<iv>.<ciphertext>.<tag>` (base64url).
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(serverSecret: string, purpose: string) {
    this.key = Buffer.from(hkdfSync('sha256', Buffer.from(serverSecret, 'utf8'), Buffer.from('cartograph'), Buffer.from(purpose), 32));
  }

  seal(secret: string, ownerId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(ownerId, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [FORMAT_VERSION, iv.toString('base64url'), ciphertext.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  /** The secret, or null when it was sealed under another server secret, for another owner, or tampered with. */
  open(sealed: string, ownerId: string): string | null {
    const [version, iv, ciphertext, tag, ...rest] = sealed.split('.');
    // The ciphertext of an empty secret is empty: only its absence is malformed.
    if (version !== FORMAT_VERSION || rest.length > 0 || !iv || ciphertext === undefined || !tag) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(ownerId, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
