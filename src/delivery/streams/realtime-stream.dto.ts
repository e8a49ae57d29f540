import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { ListQuery } from '../../common/http/list-query';
import { MAX_INTEGER_ID } from '../../common/http/params';
import { Optional } from '../../common/validation/optional';

export class RealtimeStreamQuery {
  @ApiPropertyOptional({ type: [Number], description: 'Only devices in these buildings (comma-separated or repeated)' })
  @Optional()
  @ListQuery({ integers: true })
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(MAX_INTEGER_ID, { each: true })
  building_ids?: number[];

  @ApiPropertyOptional({ description: 'Resume after this event id (as `Last-Event-ID`, which wins when both are sent)' })
  @Optional()
  @IsString()
  @MaxLength(32)
  after?: string;

  @ApiPropertyOptional({ description: 'A single-use ticket from POST /auth/stream_tickets, instead of the headers' })
  @Optional()
  @IsString()
  @MaxLength(128)
  ticket?: string;
}
