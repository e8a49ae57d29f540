import { formatOptionalTimestamp, formatTimestamp } from '../common/time/timestamps';
import { User } from './user.entity';
import { UserResponseDto } from './users.dto';

/** Never a password or its hash. `groupIds` come from the memberships, loaded once per list. */
export function toUserResponse(user: User, groupIds: string[]): UserResponseDto {
  return {
    id: user.id,
    email: user.email,
    code: user.code,
    full_name: user.fullName,
    role: user.role,
    organization_id: user.organizationId,
    group_ids: groupIds,
    building_ids: user.buildingScope ?? [],
    locale: user.locale,
    info: user.info,
    icon_colour: user.iconColour,
    is_verified: user.isVerified,
    last_activity: formatOptionalTimestamp(user.lastActivity),
    created_at: formatTimestamp(user.createdAt),
    updated_at: formatTimestamp(user.updatedAt),
  };
}
