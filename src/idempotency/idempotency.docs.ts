import type { OpenAPIObject } from '@nestjs/swagger';
import { SECURITY } from '../access/decorators/access.decorator';

/**
 * Adds the optional `Idempotency-Key` header to every documented create (authenticated
 * `POST` that is not a token exchange), as the interceptor applies it: once, not per route.
 */
export function documentIdempotencyKey(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    const operation = item.post;
    const security = operation?.security ?? [];
    if (!operation || security.length === 0 || security.some((requirement) => SECURITY.basic in requirement)) continue;
    operation.parameters = [
      ...(operation.parameters ?? []),
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409.',
        schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
      },
    ];
  }
}
