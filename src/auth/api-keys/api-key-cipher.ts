import { SecretBox } from '../../common/crypto/secret-box';

export const API_KEY_CIPHER = Symbol('API_KEY_CIPHER');

/**
 * Seals the secrets of positioning keys (readable again by their owner, contract section 10),
 * bound to the key's row id, under a key of their own derived from the sealing secret.
 */
export type ApiKeyCipher = SecretBox;

export function positioningKeyCipher(sealingSecret: string): ApiKeyCipher {
  return new SecretBox(sealingSecret, 'positioning-api-keys/v1');
}
