import { Controller, Get, Header, Query, StreamableFile } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { Access } from '../auth/decorators/access.decorator';
import { CurrentPrincipal } from '../auth/decorators/current-principal.decorator';
import { AccessScope } from '../auth/permissions';
import { Principal } from '../auth/principal';
import { streamReportCsv, streamReportJson } from './report-stream';
import { UserPositionsQuery } from './reports.dto';
import { UserPositionsReport } from './user-positions.report';

@ApiTags('Reports')
@Controller('reports')
export class ReportsController {
  constructor(private readonly userPositions: UserPositionsReport) {}

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
}
