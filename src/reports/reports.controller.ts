import { Controller, Get, Header, Query, StreamableFile } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { Access } from '../access/decorators/access.decorator';
import { CurrentPrincipal } from '../access/decorators/current-principal.decorator';
import { AccessScope } from '../access/permissions';
import { Principal } from '../access/principal';
import { GeofencingReports } from './geofencing-reports';
import { streamReportCsv, streamReportJson } from './report-stream';
import { UserPositionsQuery } from './reports.dto';
import { UserPositionsReport } from './user-positions.report';

@ApiTags('Reports')
@Controller('reports')
export class ReportsController {
  constructor(
    private readonly userPositions: UserPositionsReport,
    private readonly geofencing: GeofencingReports,
  ) {}

  @Get('user_positions.json')
  @Access(AccessScope.Read)
  @ApiOperation({ summary: "Trajectory: a building's positions in a time range, ordered by time, with session_mark" })
  @ApiOkResponse({ description: '{"meta":[…],"data":[…],"rows":N,"statistics":{…}}', schema: { type: 'object' } })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async userPositionsJson(@CurrentPrincipal() principal: Principal, @Query() query: UserPositionsQuery): Promise<StreamableFile> {
    return streamReportJson(await this.userPositions.open(principal, query));
  }

  @Get('user_positions.csv')
  @Access(AccessScope.Read)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'The trajectory report as a CSV download' })
  @ApiOkResponse({ description: 'Header = the meta names, one line per row', content: { 'text/csv': { schema: { type: 'string' } } } })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async userPositionsCsv(@CurrentPrincipal() principal: Principal, @Query() query: UserPositionsQuery): Promise<StreamableFile> {
    return streamReportCsv(await this.userPositions.open(principal, query), 'user_positions.csv');
  }

  @Get('geofencing_stay_time.json')
  @Access(AccessScope.Read)
  @ApiOperation({
    summary: 'Time spent in each geofence per bucket, device and user, visits split at bucket edges (building_ids required; from_date, to_date, time_zone, grouping)',
  })
  @ApiOkResponse({ description: '{"meta":[…],"data":[…],"rows":N,"statistics":{…}}', schema: { type: 'object' } })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async stayTimeJson(@CurrentPrincipal() principal: Principal, @Query() query: Record<string, unknown>): Promise<StreamableFile> {
    return streamReportJson(await this.geofencing.stayTime(principal, query, 'json'));
  }

  @Get('geofencing_stay_time.csv')
  @Access(AccessScope.Read)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'The geofencing stay time report as a CSV download' })
  @ApiOkResponse({ description: 'Header = the meta names, one line per row', content: { 'text/csv': { schema: { type: 'string' } } } })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async stayTimeCsv(@CurrentPrincipal() principal: Principal, @Query() query: Record<string, unknown>): Promise<StreamableFile> {
    return streamReportCsv(await this.geofencing.stayTime(principal, query, 'csv'), 'geofencing_stay_time.csv');
  }

  @Get('geofencing_sessions_matches.json')
  @Access(AccessScope.Read)
  @ApiOperation({ summary: 'One row per geofence visit under way in the range, with the visit_id its events carry (building_ids required; from_date, to_date, time_zone)' })
  @ApiOkResponse({ description: '{"meta":[…],"data":[…],"rows":N,"statistics":{…}}', schema: { type: 'object' } })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async sessionsMatchesJson(@CurrentPrincipal() principal: Principal, @Query() query: Record<string, unknown>): Promise<StreamableFile> {
    return streamReportJson(await this.geofencing.sessionsMatches(principal, query, 'json'));
  }

  @Get('geofencing_sessions_matches.csv')
  @Access(AccessScope.Read)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'The geofencing sessions report as a CSV download' })
  @ApiOkResponse({ description: 'Header = the meta names, one line per row', content: { 'text/csv': { schema: { type: 'string' } } } })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async sessionsMatchesCsv(@CurrentPrincipal() principal: Principal, @Query() query: Record<string, unknown>): Promise<StreamableFile> {
    return streamReportCsv(await this.geofencing.sessionsMatches(principal, query, 'csv'), 'geofencing_sessions_matches.csv');
  }
}
