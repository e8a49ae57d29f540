import { formatOptionalTimestamp, formatTimestamp } from '../../common/time/timestamps';
import { ApiKey } from './api-key.entity';
import { ApiKeyResponseDto } from './api-keys.dto';

/** `secret` is passed right after creation and, for readable positioning keys, whenever they are listed. */
export function toApiKeyResponse(key: ApiKey, secret?: string): ApiKeyResponseDto {
  return {
    id: key.id,
    apikey: secret ?? key.maskedKey,
    permission: key.permission,
    description: key.description,
    created_at: formatTimestamp(key.createdAt),
    last_used_at: formatOptionalTimestamp(key.lastUsedAt),
  };
}
