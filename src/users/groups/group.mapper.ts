import { formatTimestamp } from '../../common/time/timestamps';
import { Group } from './group.entity';
import { GroupResponseDto } from './groups.dto';

export function toGroupResponse(group: Group, userIds: string[]): GroupResponseDto {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    parent_group_id: group.parentGroupId,
    organization_id: group.organizationId,
    user_ids: userIds,
    created_at: formatTimestamp(group.createdAt),
    updated_at: formatTimestamp(group.updatedAt),
  };
}
