import { formatTimestamp } from '../../common/time/timestamps';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookResponseDto } from './webhooks.dto';

export function toWebhookResponse(endpoint: WebhookEndpoint, now = new Date()): WebhookResponseDto {
  const overlap = endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt.getTime() > now.getTime() ? endpoint.previousSecretExpiresAt : null;
  return {
    id: endpoint.id,
    url: endpoint.url,
    event_types: endpoint.eventTypes,
    description: endpoint.description,
    filters: { building_ids: endpoint.filterBuildingIds, geofence_ids: endpoint.filterGeofenceIds },
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
    previous_secret_expires_at: overlap ? formatTimestamp(overlap) : null,
    created_at: formatTimestamp(endpoint.createdAt),
    updated_at: formatTimestamp(endpoint.updatedAt),
  };
}
