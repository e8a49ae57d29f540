import { Controller, Get, Header, Query, StreamableFile } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Access } from '../access/decorators/access.decorator';
import { CurrentPrincipal } from '../access/decorators/current-principal.decorator';
import { AccessScope } from '../access/permissions';
import { Principal } from '../access/principal';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { BuildingReports } from './building-reports';
import { BuildingReportQuery } from './building-reports.dto';
import { streamReportCsv, streamReportJson } from './report-stream';

const ENVELOPE = { description: '{"meta":[…],"data":[…],"rows":N,"statistics":{…}}', schema: { type: 'object' } };
const CSV = { description: 'Header = the meta names, one line per bucket', content: { 'text/csv': { schema: { type: 'string' } } } };
const TOO_LARGE = { status: 507, description: 'output_too_large', type: ErrorResponseDto };

/** The building reports of contract 8.1 built on the position rollups: visitors and positioning_time. */
@ApiTags('Reports')
@Controller('reports')
@ApiBadRequestResponse({ type: ErrorResponseDto })
@ApiNotFoundResponse({ type: ErrorResponseDto })
@ApiResponse(TOO_LARGE)
export class BuildingReportsController {
  constructor(private readonly reports: BuildingReports) {}

  @Get('visitors.json')
  @Access(AccessScope.Read)
  @ApiOperation({ summary: 'Distinct devices seen in a building per hour, day, week or month of a time zone' })
  @ApiOkResponse(ENVELOPE)
  async visitorsJson(@CurrentPrincipal() principal: Principal, @Query() query: BuildingReportQuery): Promise<StreamableFile> {
    return streamReportJson(await this.reports.visitors(principal, query));
  }

  @Get('visitors.csv')
  @Access(AccessScope.Read)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'The visitors report as a CSV download' })
  @ApiOkResponse(CSV)
  async visitorsCsv(@CurrentPrincipal() principal: Principal, @Query() query: BuildingReportQuery): Promise<StreamableFile> {
    return streamReportCsv(await this.reports.visitors(principal, query), 'visitors.csv');
  }

  @Get('positioning_time.json')
  @Access(AccessScope.Read)
  @ApiOperation({ summary: 'Seconds positioned per device in each bucket: total, mean and standard deviation over the devices seen' })
  @ApiOkResponse(ENVELOPE)
  async positioningTimeJson(@CurrentPrincipal() principal: Principal, @Query() query: BuildingReportQuery): Promise<StreamableFile> {
    return streamReportJson(await this.reports.positioningTime(principal, query));
  }

  @Get('positioning_time.csv')
  @Access(AccessScope.Read)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'The positioning_time report as a CSV download' })
  @ApiOkResponse(CSV)
  async positioningTimeCsv(@CurrentPrincipal() principal: Principal, @Query() query: BuildingReportQuery): Promise<StreamableFile> {
    return streamReportCsv(await this.reports.positioningTime(principal, query), 'positioning_time.csv');
  }
}
