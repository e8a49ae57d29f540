import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { IdListQuery, ListQuery } from '../common/http/list-query';
import { Optional } from '../common/validation/optional';
import { MAX_SEC_THRESHOLD_LIMIT } from '../config/positions.config';
import { MAX_DEVICE_ID_LENGTH } from './fix';

const toBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);
const toInteger = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value);

/** Filters of contract 6.1; every list takes the three forms (`a=1,2`, `a=1&a=2`, `a[]=1`). */
export class RealtimePositionsQuery {
  @ApiPropertyOptional({ type: [Number], description: 'Comma-separated or repeated' })
  @Optional()
  @IdListQuery()
  building_ids?: number[];

  @ApiPropertyOptional({ type: [String], description: 'Comma-separated or repeated user ids' })
  @Optional()
  @ListQuery()
  @IsUUID('all', { each: true })
  user_ids?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Comma-separated or repeated device ids' })
  @Optional()
  @ListQuery()
  @IsString({ each: true })
  @MaxLength(MAX_DEVICE_ID_LENGTH, { each: true })
  device_ids?: string[];

  @ApiPropertyOptional({ description: '`true`: only positions with a building and floor; `false`: only outdoor ones' })
  @Optional()
  @Transform(toBoolean)
  @IsBoolean()
  indoor?: boolean;

  @ApiPropertyOptional({ minimum: 0, maximum: MAX_SEC_THRESHOLD_LIMIT, description: 'Only devices whose last fix is at most this many seconds old (default 60)' })
  @Optional()
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(MAX_SEC_THRESHOLD_LIMIT)
  max_sec_threshold?: number;
}

export class IngestQuery {
  @ApiPropertyOptional({ description: '`false` leaves the fired geofence events out of the answer' })
  @Optional()
  @Transform(toBoolean)
  @IsBoolean()
  return_events?: boolean;
}

export class PositionItemDto {
  @ApiProperty() device_id: string;
  @ApiPropertyOptional() device_code?: string;
  @ApiProperty({ description: 'ISO 8601 with a zone, or epoch milliseconds' }) time: string;
  @ApiPropertyOptional() building_id?: number;
  @ApiPropertyOptional() floor_id?: number;
  @ApiPropertyOptional() lat?: number;
  @ApiPropertyOptional() lng?: number;
  @ApiPropertyOptional({ description: 'Floor metres in the building frame (instead of lat/lng)' }) x?: number;
  @ApiPropertyOptional() y?: number;
  @ApiProperty({ minimum: 0, maximum: 10000 }) accuracy: number;
  @ApiPropertyOptional({ description: 'Radians' }) yaw?: number;
  @ApiPropertyOptional() indoor?: boolean;
  @ApiPropertyOptional({ description: 'ADMIN_ORG credentials only' }) user_id?: string;
}

export class PositionBatchDto {
  @ApiProperty({ type: [PositionItemDto], maxItems: 1000 }) positions: PositionItemDto[];
}

export class ItemRejectionDto {
  @ApiProperty() index: number;
  @ApiProperty({ example: 'invalid' }) code: string;
  @ApiProperty({ example: 'floor_id' }) fields: string;
  @ApiProperty() message: string;
}

export class IngestResponseDto {
  @ApiProperty() accepted: number;
  @ApiProperty({ type: [ItemRejectionDto] }) rejected: ItemRejectionDto[];
  @ApiProperty({ type: [Object] }) events: unknown[];
}
