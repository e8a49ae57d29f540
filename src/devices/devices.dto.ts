import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsISO8601, IsObject, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { IdListQuery } from '../common/http/list-query';
import { PageQuery } from '../common/pagination/pagination';
import { Nullable, Optional } from '../common/validation/optional';
import { MAX_DEVICE_ID_LENGTH } from '../positions/fix';

export class IBeaconTagDto {
  @ApiProperty({ example: 'f7826da6-4fa2-4e98-8024-bc5b71e0893e', description: 'Proximity UUID, any case, with or without dashes' })
  @IsString()
  @Matches(/^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i, { message: 'uuid must be a UUID (32 hexadecimal digits, dashes optional)' })
  uuid: string;

  @ApiProperty({ minimum: 0, maximum: 65535 })
  @IsInt()
  @Min(0)
  @Max(65535)
  major: number;

  @ApiProperty({ minimum: 0, maximum: 65535 })
  @IsInt()
  @Min(0)
  @Max(65535)
  minor: number;
}

export class EddystoneTagDto {
  @ApiProperty({ example: 'edd1ebeac04e5defa017', description: 'Eddystone-UID namespace: 20 hexadecimal digits' })
  @IsString()
  @Matches(/^[0-9a-f]{20}$/i, { message: 'namespace must be 20 hexadecimal digits' })
  namespace: string;

  @ApiProperty({ example: '0123456789ab', description: 'Eddystone-UID instance: 12 hexadecimal digits' })
  @IsString()
  @Matches(/^[0-9a-f]{12}$/i, { message: 'instance must be 12 hexadecimal digits' })
  instance: string;
}

/** What a tag advertises (issue 39): exactly one of these. */
export class TagIdentityDto {
  @ApiPropertyOptional({ type: IBeaconTagDto })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => IBeaconTagDto)
  ibeacon?: IBeaconTagDto;

  @ApiPropertyOptional({ example: 'AC:23:3F:A0:32:08', description: "The advertiser's MAC, any case, `:` or `-` or no separators (stored as 12 lower-case hex digits)" })
  @Optional()
  @IsString()
  @MaxLength(17)
  mac?: string;

  @ApiPropertyOptional({ example: 'irk:e46c37a106468d1376c58d33881ee47a', description: 'An ESPresense device id (`iBeacon:{uuid}-{major}-{minor}` also matches the iBeacon)' })
  @Optional()
  @IsString()
  @MaxLength(200)
  espresense_id?: string;

  @ApiPropertyOptional({ type: EddystoneTagDto })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => EddystoneTagDto)
  eddystone?: EddystoneTagDto;
}

export class ListDevicesQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Substring of the id, name or code, case-insensitive' })
  @Optional()
  @IsString()
  @MaxLength(255)
  search?: string;

  @ApiPropertyOptional({ type: [Number], description: 'Devices whose last fix is in these buildings (comma-separated or repeated)' })
  @Optional()
  @IdListQuery()
  building_ids?: number[];

  @ApiPropertyOptional({ type: [Number], description: 'Devices whose last fix is on these floors (comma-separated or repeated)' })
  @Optional()
  @IdListQuery()
  floor_ids?: number[];

  @ApiPropertyOptional({ description: 'ISO 8601 instant: only devices last seen at or after it', example: '2026-01-01T00:00:00Z' })
  @Optional()
  @IsISO8601({ strict: true })
  last_seen_after?: string;

  @ApiPropertyOptional({ description: 'ISO 8601 instant: only devices last seen before it (or never)' })
  @Optional()
  @IsISO8601({ strict: true })
  last_seen_before?: string;
}

export class UpdateDeviceDto {
  @ApiPropertyOptional({ maxLength: 255 })
  @Optional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ maxLength: 255, description: 'The hardware code (model) the device reports' })
  @Optional()
  @IsString()
  @MaxLength(255)
  code?: string;

  @ApiPropertyOptional({
    type: TagIdentityDto,
    nullable: true,
    description: 'What the device advertises, for BLE gateways to hear it: exactly one of ibeacon, mac, espresense_id, eddystone; unique in the organization. null: no tag',
  })
  @Nullable()
  @IsObject()
  @ValidateNested()
  @Type(() => TagIdentityDto)
  tag?: TagIdentityDto | null;
}

export class CreateDeviceDto extends UpdateDeviceDto {
  @ApiProperty({ maxLength: MAX_DEVICE_ID_LENGTH, example: 'forklift-7', description: 'The device id its fixes carry (unique in the organization)' })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_DEVICE_ID_LENGTH)
  @Matches(/^[^\u0000-\u001f]*$/, { message: 'id must not contain control characters' })
  id: string;
}

export class DevicePositionDto {
  @ApiProperty({ example: '2022-10-31T18:03:42.326Z' }) time: string;
  @ApiProperty({ nullable: true, type: Number }) building_id: number | null;
  @ApiProperty({ nullable: true, type: Number }) floor_id: number | null;
  @ApiProperty() lat: number;
  @ApiProperty() lng: number;
  @ApiProperty({ nullable: true, type: Number }) x: number | null;
  @ApiProperty({ nullable: true, type: Number }) y: number | null;
  @ApiProperty() accuracy: number;
  @ApiProperty({ nullable: true, type: Number }) yaw: number | null;
}

export class DeviceResponseDto {
  @ApiProperty() id: string;
  @ApiProperty() code: string;
  @ApiProperty() name: string;
  @ApiProperty() organization_id: string;
  @ApiProperty({ nullable: true, type: String, description: 'The user of the latest fix' }) user_id: string | null;
  @ApiProperty({ nullable: true, type: String }) last_seen_at: string | null;
  @ApiProperty({ nullable: true, type: DevicePositionDto }) last_position: DevicePositionDto | null;
  @ApiProperty({ nullable: true, type: TagIdentityDto, description: 'What the device advertises as a tag (normalised), or null' }) tag: TagIdentityDto | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}
