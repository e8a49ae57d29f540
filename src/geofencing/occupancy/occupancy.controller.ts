import { Controller, Get, Query } from '@nestjs/common';
import { IsString } from 'class-validator';
import { ApiNotFoundResponse, ApiPropertyOptional, ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { Access } from '../../access/decorators/access.decorator';
import { CurrentPrincipal } from '../../access/decorators/current-principal.decorator';
import { AccessScope } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { UuidParam } from '../../common/http/params';
import { Page, PageQuery } from '../../common/pagination/pagination';
import { Optional } from '../../common/validation/optional';
import { FenceOccupancy, GeofenceOccupancyService, Occupant, Visit } from './occupancy.service';

/** page and size as every list; from and to are read by the service, which names a bad one. */
export class VisitsQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'ISO 8601: visits still under way at or after this time' })
  @Optional()
  @IsString()
  from?: string;

  @ApiPropertyOptional({ description: 'ISO 8601: visits that began at or before this time' })
  @Optional()
  @IsString()
  to?: string;
}

@ApiTags('Geofencing')
@Controller()
export class GeofenceOccupancyController {
  constructor(private readonly occupancy: GeofenceOccupancyService) {}

  @Get('geofences/:id/occupants')
  @Access(AccessScope.Read)
  @ApiOperation({ summary: 'Who is inside the geofence now: entered_at, dwell_seconds, visit_id and the last position of each device' })
  @ApiOkResponse({ description: '{"data":[occupant…]}', schema: { type: 'object' } })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  occupants(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<{ data: Occupant[] }> {
    return this.occupancy.occupants(principal, id);
  }

  @Get('geofences/:id/visits')
  @Access(AccessScope.Read)
  @ApiOperation({ summary: 'The visits of a geofence under way at any time between from and to, newest first (page, size)' })
  @ApiOkResponse({ description: '{"data":[visit…],"metadata":{…}}', schema: { type: 'object' } })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  visits(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string, @Query() query: VisitsQuery): Promise<Page<Visit>> {
    return this.occupancy.visits(principal, id, query as unknown as Record<string, unknown>, query);
  }

  @Get('geofencing/occupancy')
  @Access(AccessScope.Read)
  @ApiOperation({ summary: 'How many devices are inside each geofence now (fences with at least one), filtered by building_ids and floor_ids' })
  @ApiOkResponse({ description: '{"data":[{"geofence_id","name","code","building_id","floor_id","occupants"}]}', schema: { type: 'object' } })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  counts(@CurrentPrincipal() principal: Principal, @Query() query: Record<string, unknown>): Promise<{ data: FenceOccupancy[] }> {
    return this.occupancy.occupancy(principal, query);
  }
}
