import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, IsUUID, MaxLength } from 'class-validator';
import { ListQuery } from '../../common/http/list-query';
import { API_PERMISSIONS, ApiPermission } from '../../access/permissions';
import { Optional } from '../../common/validation/optional';

export class CreateApiKeyDto {
  @ApiPropertyOptional({ enum: API_PERMISSIONS, default: ApiPermission.ReadOnly })
  @Optional()
  @IsIn(API_PERMISSIONS)
  permission?: ApiPermission;

  @ApiPropertyOptional({ maxLength: 255, example: 'Kiosk app, 3rd floor' })
  @Optional()
  @IsString()
  @MaxLength(255)
  description?: string;
}

export class UpdateApiKeyDto extends CreateApiKeyDto {}

export class ListApiKeysQuery {
  @ApiPropertyOptional({ description: 'Only keys with these permissions (comma-separated or repeated)', type: [String], enum: API_PERMISSIONS })
  @Optional()
  @ListQuery()
  @IsIn(API_PERMISSIONS, { each: true })
  permissions?: ApiPermission[];

  @ApiPropertyOptional({ format: 'uuid', description: "ADMIN_ORG only: another user's keys (masked)" })
  @Optional()
  @IsUUID()
  user_id?: string;
}

export class ApiKeyResponseDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({
    description: 'The full key right after creation, and always for positioning keys created since they became readable; masked otherwise (it then contains `*`)',
    example: 'cgk_AbCd********wXyZ',
  })
  apikey: string;

  @ApiProperty({ enum: API_PERMISSIONS })
  permission: ApiPermission;

  @ApiProperty()
  description: string;

  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' })
  created_at: string;

  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00', nullable: true, type: String })
  last_used_at: string | null;
}
