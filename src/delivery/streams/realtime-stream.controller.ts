import { Controller, Get, Headers, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Access, AccessRequirement } from '../../access/decorators/access.decorator';
import { AuthenticationGuard } from '../../auth/guards/authentication.guard';
import { CurrentPrincipal } from '../../access/decorators/current-principal.decorator';
import { AccessScope } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { ApiError } from '../../common/errors/api-error';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { PositionStreamsService } from './position-streams.service';
import { RealtimeStreamQuery } from './realtime-stream.dto';
import { streamCredentialCheck } from './stream-authentication';
import { parseWatermark } from './stream-cursor';

const STREAM_ACCESS: AccessRequirement = { scope: AccessScope.Read, stream: true };

@ApiTags('Realtime positions')
@Controller('realtime')
export class RealtimeStreamController {
  constructor(
    private readonly positions: PositionStreamsService,
    private readonly guard: AuthenticationGuard,
  ) {}

  @Get('stream')
  @Access(STREAM_ACCESS.scope, { stream: true })
  @ApiOperation({
    summary:
      "Server-Sent Events: `event: position` with a 6.1 feature each time a device's latest fix changes; `retry: 3000` first, `: ping` every 15 s; resume with Last-Event-ID or `?after=`",
  })
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The last `id:` received; what changed after it is replayed first' })
  @ApiOkResponse({ description: 'text/event-stream', content: { 'text/event-stream': { schema: { type: 'string' } } } })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'The organization has the most live streams allowed open' })
  async stream(
    @CurrentPrincipal() principal: Principal,
    @Query() query: RealtimeStreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const resumeFrom = lastEventId !== undefined && lastEventId.trim() !== '' ? lastEventId.trim() : query.after;
    let after: number | null = null;
    if (resumeFrom !== undefined) {
      after = parseWatermark(resumeFrom);
      if (after === null) {
        const field = lastEventId !== undefined && lastEventId.trim() !== '' ? 'Last-Event-ID' : 'after';
        throw ApiError.validation(`${field} is not an event id of this stream`, [{ message: 'must be an event id this stream sent', code: 'invalid', fields: field }]);
      }
    }
    await this.positions.open(principal, query.building_ids, after, reply, streamCredentialCheck(this.guard, request, reply, STREAM_ACCESS));
  }
}
