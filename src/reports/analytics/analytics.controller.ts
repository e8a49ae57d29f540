import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../../access/decorators/access.decorator';
import { CurrentPrincipal } from '../../access/decorators/current-principal.decorator';
import { AccessScope } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { GeofencingAnalyticsService } from './analytics.service';

const ANALYTICS_SUMMARY =
  'Per geofence and bucket: entries, exits, unique devices and users, total/avg/p50/p90 stay seconds, peak occupancy (contract 8.2). ' +
  "building_ids and geofence_ids in any list form, from/to (or from_date/to_date), organizationId or organization_id (the caller's), grouping (none|hour|day|week|month), time_zone";

@ApiTags('Geofencing')
@Controller('geofencing')
export class GeofencingAnalyticsController {
  constructor(private readonly analytics: GeofencingAnalyticsService) {}

  @Get('analytics')
  @Access(AccessScope.Read)
  @ApiOperation({ summary: ANALYTICS_SUMMARY })
  @ApiOkResponse({ description: '{"from","to","grouping","time_zone","data":[…]}', schema: { type: 'object' } })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  get(@CurrentPrincipal() principal: Principal, @Query() query: Record<string, unknown>): Promise<StreamableFile> {
    return this.analytics.analytics(principal, query);
  }

  @Get('analytics/search')
  @Access(AccessScope.Read)
  @ApiOperation({ summary: `The same analytics on the hosted API's second path. ${ANALYTICS_SUMMARY}` })
  @ApiOkResponse({ description: '{"from","to","grouping","time_zone","data":[…]}', schema: { type: 'object' } })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  search(@CurrentPrincipal() principal: Principal, @Query() query: Record<string, unknown>): Promise<StreamableFile> {
    return this.analytics.analytics(principal, query);
  }

  @Get('occupancy/history')
  @Access(AccessScope.Read)
  @ApiOperation({
    summary:
      'Occupancy over time per geofence: for each bucket the peak, the time-weighted mean and the end-of-bucket count of visits under way (geofence_ids, from, to, grouping default hour, time_zone)',
  })
  @ApiOkResponse({
    description: '{"from","to","grouping","time_zone","data":[{"geofence_id",…,"series":[{"bucket","max_occupancy","avg_occupancy","end_occupancy"}]}]}',
    schema: { type: 'object' },
  })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  history(@CurrentPrincipal() principal: Principal, @Query() query: Record<string, unknown>): Promise<StreamableFile> {
    return this.analytics.occupancyHistory(principal, query);
  }
}
