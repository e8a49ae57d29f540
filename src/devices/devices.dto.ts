import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsString, MaxLength } from 'class-validator';
import { IdListQuery } from '../common/http/list-query';
import { PageQuery } from '../common/pagination/pagination';
import { Optional } from '../common/validation/optional';

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
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}
