import { Controller, Get, Headers, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Access, AccessRequirement } from '../../access/decorators/access.decorator';
import { CurrentPrincipal } from '../../access/decorators/current-principal.decorator';
import { AuthenticationGuard } from '../../auth/guards/authentication.guard';
import { AccessScope } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { ApiError } from '../../common/errors/api-error';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { parseEventLogQuery } from '../../geofencing/events/event-log-query';
import { EventStreamsService } from './event-streams.service';
import { streamCredentialCheck } from './stream-authentication';

const STREAM_ACCESS: AccessRequirement = { scope: AccessScope.Read, stream: true };

@ApiTags('Geofencing')
@Controller('geofencing/events')
export class GeofenceEventStreamController {
  constructor(
    private readonly events: EventStreamsService,
    private readonly guard: AuthenticationGuard,
  ) {}

  @Get('stream')
  @Access(STREAM_ACCESS.scope, { stream: true })
  @ApiOperation({
    summary:
      'Server-Sent Events: each new geofence event as the event log serves it (`id:` its cursor, `event:` its type); filters as GET /geofencing/events (types, geofence_ids, device_ids, user_ids, building_ids, from, to); `retry: 3000` first, `: ping` every 15 s; Last-Event-ID or `?after=` replays the log after it, then goes live; `?ticket=` instead of the headers',
  })
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The last `id:` received (an event cursor); the log after it is replayed first' })
  @ApiOkResponse({ description: 'text/event-stream', content: { 'text/event-stream': { schema: { type: 'string' } } } })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'A bad filter or cursor, named in errors[].fields' })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'The organization has the most live streams allowed open' })
  async stream(
    @CurrentPrincipal() principal: Principal,
    @Query() raw: Record<string, unknown>,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { query, errors } = parseEventLogQuery(raw);
    if (raw.before !== undefined) errors.push({ message: 'a stream reads forward: resume with after or Last-Event-ID', code: 'invalid', fields: 'before', value: raw.before });
    const header = lastEventId?.trim();
    let after = query.after;
    if (header) {
      if (/^\d{1,15}$/.test(header)) after = Number(header);
      else errors.push({ message: 'must be an event id this stream sent', code: 'invalid', fields: 'Last-Event-ID' });
    }
    if (errors.length > 0) throw ApiError.validation('The event stream query is not valid', errors);
    await this.events.open(principal, query, after, reply, streamCredentialCheck(this.guard, request, reply, STREAM_ACCESS));
  }
}
