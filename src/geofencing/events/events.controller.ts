import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiGoneResponse, ApiNotFoundResponse, ApiOkResponse, ApiPayloadTooLargeResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { Access } from '../../access/decorators/access.decorator';
import { CurrentPrincipal } from '../../access/decorators/current-principal.decorator';
import { AccessScope } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { BodyLimit } from '../../common/http/body-limit';
import { EventPage, GeofenceEventLog } from './event-log.service';
import { GeofenceEventBody } from './geofence-event';
import { GeofenceSimulation, SIMULATE_BODY_LIMIT_BYTES, SimulatedEvent } from './simulation.service';

@ApiTags('Geofencing')
@Controller('geofencing/events')
export class GeofenceEventsController {
  constructor(private readonly log: GeofenceEventLog) {}

  @Get()
  @Access(AccessScope.Read)
  @ApiOperation({
    summary:
      'The geofence event log (contract 7.3): after=<cursor> reads forward, before=<cursor> backward; limit (100, at most 1000); filters types, geofence_ids, device_ids, user_ids, building_ids (comma lists), from, to',
  })
  @ApiOkResponse({ description: '{"data":[event…],"next_cursor","has_more"}', schema: { type: 'object' } })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'A bad filter or cursor, named in errors[].fields' })
  @ApiGoneResponse({
    type: ErrorResponseDto,
    description: 'cursor_expired: events the cursor needs are past the retention (GEOFENCE_EVENT_RETENTION_DAYS); read again without a cursor',
  })
  list(@CurrentPrincipal() principal: Principal, @Query() query: Record<string, unknown>): Promise<EventPage> {
    return this.log.list(principal, query);
  }

  @Get(':id')
  @Access(AccessScope.Read)
  @ApiOperation({ summary: 'One geofence event by id' })
  @ApiOkResponse({ description: 'The event (contract 7.3)', schema: { type: 'object' } })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<GeofenceEventBody> {
    return this.log.get(principal, id);
  }
}

@ApiTags('Geofencing')
@Controller('geofencing')
export class GeofenceSimulationController {
  constructor(private readonly simulation: GeofenceSimulation) {}

  @Post('simulate')
  @HttpCode(200)
  @BodyLimit(SIMULATE_BODY_LIMIT_BYTES)
  @Access(AccessScope.Read)
  @ApiOperation({
    summary:
      'The events a recorded track would fire (contract 7.6): {"positions":[{device_id,time,lat,lng,accuracy,floor_id}…] (at most 10,000),"geofence_ids"?,"rules"?}; nothing is stored',
  })
  @ApiOkResponse({ description: '{"events":[event…]} with id and detected_at null', schema: { type: 'object' } })
  @ApiUnprocessableEntityResponse({
    type: ErrorResponseDto,
    description: 'A bad position, rule or unknown floor, or geofence_ids naming fences that are not your live ones, named in errors[].fields',
  })
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto, description: 'The body is over 8 MiB (this route takes more than the 1 MiB of others, for its 10,000 positions)' })
  simulate(@CurrentPrincipal() principal: Principal, @Body() body: unknown): Promise<{ events: SimulatedEvent[] }> {
    return this.simulation.simulate(principal, body);
  }
}
