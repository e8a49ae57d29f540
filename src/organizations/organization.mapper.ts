import { formatTimestamp } from '../common/time/timestamps';
import { mqttTopicPrefix } from './mqtt-topic-prefix';
import { Organization } from './organization.entity';
import { OrganizationResponseDto } from './organizations.dto';

export function toOrganizationResponse(organization: Organization): OrganizationResponseDto {
  return {
    id: organization.id,
    name: organization.name,
    mqtt_topic_prefix: mqttTopicPrefix(organization.id),
    created_at: formatTimestamp(organization.createdAt),
    updated_at: formatTimestamp(organization.updatedAt),
  };
}
