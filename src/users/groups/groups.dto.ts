import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsNotEmpty, IsString, IsUUID, MaxLength } from 'class-validator';
import { Nullable, Optional, PartialUpdate } from '../../common/validation/optional';
import { BooleanFromString, Trim } from '../../common/validation/transforms';

export class CreateGroupDto {
  @ApiProperty({ maxLength: 255, example: 'Night shift' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @ApiPropertyOptional({ maxLength: 65535 })
  @Optional()
  @IsString()
  @MaxLength(65535)
  description?: string;

  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String, description: 'null: a top-level group' })
  @Nullable()
  @IsUUID()
  parent_group_id?: string | null;

  @ApiPropertyOptional({ type: [String], format: 'uuid', description: 'The members (replaces them on update)' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(10_000)
  @IsUUID(undefined, { each: true })
  user_ids?: string[];
}

export class UpdateGroupDto extends PartialUpdate(CreateGroupDto) {}

export class ListGroupsQuery {
  @ApiPropertyOptional({ description: 'true: only groups with a parent; false: only top-level groups' })
  @Optional()
  @BooleanFromString()
  @IsBoolean()
  has_parent?: boolean;
}

export class GroupResponseDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) parent_group_id: string | null;
  @ApiProperty({ format: 'uuid' }) organization_id: string;
  @ApiProperty({ type: [String] }) user_ids: string[];
  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' }) created_at: string;
  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' }) updated_at: string;
}
