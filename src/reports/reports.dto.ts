import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsString, IsUUID, Matches, Max, MaxLength, Min } from 'class-validator';
import { MAX_INTEGER_ID } from '../common/http/params';
import { Optional } from '../common/validation/optional';
import { MAX_DEVICE_ID_LENGTH } from '../positions/fix';
import { REPORT_DATE } from './report-window';

/** A query string of digits as the integer it spells (anything else is left for the validators to refuse). */
export const toInteger = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value);
export { REPORT_DATE } from './report-window';

export class UserPositionsQuery {
  @ApiProperty({ description: 'Date-only or ISO 8601 date-time', example: '2026-11-01T00:00:00.000Z' })
  @IsString()
  @Matches(REPORT_DATE, { message: 'from_date must be a date (YYYY-MM-DD) or an ISO 8601 date-time' })
  from_date: string;

  @ApiProperty({ description: 'Date-only (inclusive) or ISO 8601 date-time (exclusive)', example: '2026-11-02T00:00:00.000Z' })
  @IsString()
  @Matches(REPORT_DATE, { message: 'to_date must be a date (YYYY-MM-DD) or an ISO 8601 date-time' })
  to_date: string;

  @ApiProperty()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  building_id: number;

  @ApiPropertyOptional()
  @Optional()
  @IsUUID('all')
  user_id?: string;

  @ApiPropertyOptional()
  @Optional()
  @IsString()
  @MaxLength(MAX_DEVICE_ID_LENGTH)
  device_id?: string;

  @ApiPropertyOptional()
  @Optional()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  floor_id?: number;
}
