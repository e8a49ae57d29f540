import { Controller, Get, Header, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../access/decorators/access.decorator';
import { CurrentPrincipal } from '../access/decorators/current-principal.decorator';
import { AccessScope } from '../access/permissions';
import { Principal } from '../access/principal';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { IdParam, UuidParam } from '../common/http/params';
import { RealtimePositionsQuery } from './positions.dto';
import { RealtimePositionsService } from './realtime-positions.service';
import { RealtimePositionsJson } from './realtime.mapper';

/** The realtime answers come serialized already (see renderRealtimeJson). */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const REALTIME_ANSWER = {
  description: 'A FeatureCollection, one feature per device (its latest fix), coordinates `[lat, lng]`, with `devicesInfo`',
  schema: { type: 'object' },
} as const;

@ApiTags('Realtime positions')
@Controller('realtime')
export class PositionsController {
  constructor(private readonly realtime: RealtimePositionsService) {}

  @Get('positions')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  @Access(AccessScope.Read)
  @ApiOperation({ summary: "Each device's latest position, filtered" })
  @ApiOkResponse(REALTIME_ANSWER)
  list(@CurrentPrincipal() principal: Principal, @Query() query: RealtimePositionsQuery): Promise<RealtimePositionsJson> {
    return this.realtime.list(principal, query);
  }

  @Get('building/:building_id')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  @Access(AccessScope.Read)
  @ApiOperation({ summary: 'Legacy: the latest positions in one building' })
  @ApiOkResponse(REALTIME_ANSWER)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  forBuilding(@CurrentPrincipal() principal: Principal, @IdParam('building_id') buildingId: number, @Query() query: RealtimePositionsQuery): Promise<RealtimePositionsJson> {
    return this.realtime.forBuilding(principal, buildingId, query);
  }

  @Get('organization/:organization_uuid')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  @Access(AccessScope.Read)
  @ApiOperation({ summary: "Legacy: the latest positions of the caller's organization" })
  @ApiOkResponse(REALTIME_ANSWER)
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  forOrganization(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('organization_uuid') organizationId: string,
    @Query() query: RealtimePositionsQuery,
  ): Promise<RealtimePositionsJson> {
    return this.realtime.forOrganization(principal, organizationId, query);
  }
}
