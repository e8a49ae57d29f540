import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { MAX_INTEGER_ID } from '../common/http/params';
import { Optional } from '../common/validation/optional';
import { toInteger } from './reports.dto';

/**
 * `visitors` and `positioning_time` (contract 8.1). The dates, zone and grouping are read by
 * parseReportWindow / parseGrouping, which name the parameter in every 400.
 */
export class BuildingReportQuery {
  @ApiProperty({ description: 'Date-only (local midnight in time_zone) or ISO 8601 date-time', example: '2026-11-01' })
  @Optional()
  @IsString()
  from_date?: string;

  @ApiProperty({ description: 'Date-only (inclusive: to the next local midnight) or ISO 8601 date-time (exclusive)', example: '2026-11-30' })
  @Optional()
  @IsString()
  to_date?: string;

  @ApiProperty()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  building_id: number;

  @ApiPropertyOptional({ description: 'IANA time zone of the buckets and the local dates', example: 'Europe/Madrid', default: 'UTC' })
  @Optional()
  @IsString()
  time_zone?: string;

  @ApiPropertyOptional({ enum: ['hour', 'day', 'week', 'month'], default: 'day' })
  @Optional()
  @IsString()
  grouping?: string;
}
