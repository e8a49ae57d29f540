import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsString, IsUUID, Matches, Max, MaxLength, Min } from 'class-validator';
import { Role } from '../access/roles';
import { IdListQuery, ListQuery } from '../common/http/list-query';
import { MAX_INTEGER_ID } from '../common/http/params';
import { PageQuery } from '../common/pagination/pagination';
import { Optional, PartialUpdate } from '../common/validation/optional';
import { BooleanFromString, Trim } from '../common/validation/transforms';

export const ROLES = [Role.AdminOrg, Role.User];

export class CreateUserDto {
  @ApiProperty({ example: 'ana@example.com', description: 'Unique across the server, case-insensitive' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsString()
  @MaxLength(320)
  @Matches(/^[^\s@]+@[^\s@]+$/, { message: 'email must be an e-mail address' })
  email: string;

  @ApiProperty({ minLength: 12, description: 'At least 12 characters, not the e-mail' })
  @IsString()
  @MaxLength(1024)
  password: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @Optional()
  @Trim()
  @IsString()
  @MaxLength(255)
  full_name?: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @Optional()
  @Trim()
  @IsString()
  @MaxLength(255)
  code?: string;

  @ApiPropertyOptional({ enum: ROLES, default: Role.User })
  @Optional()
  @IsIn(ROLES)
  role?: Role;

  @ApiPropertyOptional({ example: 'en', maxLength: 16 })
  @Optional()
  @IsString()
  @Matches(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/, { message: 'locale must be a language tag such as en or es-ES' })
  @MaxLength(16)
  locale?: string;

  @ApiPropertyOptional({ maxLength: 65535 })
  @Optional()
  @IsString()
  @MaxLength(65535)
  info?: string;

  @ApiPropertyOptional({ example: '#3366ff' })
  @Optional()
  @IsString()
  @Matches(/^(#[0-9a-fA-F]{3,8})?$/, { message: 'icon_colour must be a hex colour such as #3366ff' })
  icon_colour?: string;

  @ApiPropertyOptional({ default: false })
  @Optional()
  @IsBoolean()
  is_verified?: boolean;

  @ApiPropertyOptional({ type: [String], format: 'uuid' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsUUID(undefined, { each: true })
  group_ids?: string[];

  @ApiPropertyOptional({ type: [Number], description: 'Restrict a USER to these buildings; empty: all' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(10_000)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(MAX_INTEGER_ID, { each: true })
  building_ids?: number[];
}

/** Partial; `password` here is an administrator's reset of another user's password. */
export class UpdateUserDto extends PartialUpdate(CreateUserDto) {}

/** What a USER may change of itself. */
export const SELF_EDITABLE_FIELDS = ['full_name', 'locale', 'info', 'icon_colour'] as const;

export class ChangePasswordDto {
  @ApiProperty()
  @IsString()
  @MaxLength(1024)
  current_password: string;

  @ApiProperty({ minLength: 12 })
  @IsString()
  @MaxLength(1024)
  new_password: string;
}

export class ListUsersQuery extends OmitType(PageQuery, ['sort'] as const) {
  @ApiPropertyOptional({ description: '`field`, `-field` or `field,asc|desc`', example: 'full_name,asc' })
  @Optional()
  @IsString()
  @Matches(/^-?[a-z_]+(,(asc|desc|ASC|DESC))?$/)
  sort?: string;

  @ApiPropertyOptional({ enum: ['ASC', 'DESC'] })
  @Optional()
  @Transform(({ value }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @IsIn(['ASC', 'DESC'])
  direction?: 'ASC' | 'DESC';

  @ApiPropertyOptional({ type: [String] })
  @Optional()
  @ListQuery()
  @IsUUID(undefined, { each: true })
  ids?: string[];

  @ApiPropertyOptional({ type: [String] })
  @Optional()
  @ListQuery()
  @IsUUID(undefined, { each: true })
  exclude_ids?: string[];

  @ApiPropertyOptional({ type: [String] })
  @Optional()
  @ListQuery()
  @IsUUID(undefined, { each: true })
  group_ids?: string[];

  @ApiPropertyOptional({ type: [Number] })
  @Optional()
  @IdListQuery()
  building_ids?: number[];

  @ApiPropertyOptional()
  @Optional()
  @BooleanFromString()
  @IsBoolean()
  has_buildings?: boolean;

  @ApiPropertyOptional({ description: 'Substring, case-insensitive' })
  @Optional()
  @IsString()
  @MaxLength(255)
  full_name?: string;

  @ApiPropertyOptional({ type: [String] })
  @Optional()
  @ListQuery()
  @IsString({ each: true })
  @MaxLength(255, { each: true })
  codes?: string[];
}

export class UserResponseDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty() code: string;
  @ApiProperty() full_name: string;
  @ApiProperty({ enum: ROLES }) role: Role;
  @ApiProperty({ format: 'uuid' }) organization_id: string;
  @ApiProperty({ type: [String] }) group_ids: string[];
  @ApiProperty({ type: [Number] }) building_ids: number[];
  @ApiProperty() locale: string;
  @ApiProperty() info: string;
  @ApiProperty() icon_colour: string;
  @ApiProperty() is_verified: boolean;
  @ApiProperty({ nullable: true, type: String, example: '2020-05-08T10:26:34.801+00:00' }) last_activity: string | null;
  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' }) created_at: string;
  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' }) updated_at: string;
}
