import { ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { Optional } from '../../common/validation/optional';
import { RealtimePositionsQuery } from '../../positions/positions.dto';

/** The live read's building filter (same forms and checks as `GET /realtime/positions`), plus resuming and a ticket. */
export class RealtimeStreamQuery extends PickType(RealtimePositionsQuery, ['building_ids'] as const) {
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
