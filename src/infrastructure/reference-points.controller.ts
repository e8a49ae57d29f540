import { Body, Controller, Delete, Get, Headers, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiProduces,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Access } from '../access/decorators/access.decorator';
import { CurrentPrincipal } from '../access/decorators/current-principal.decorator';
import { AccessScope } from '../access/permissions';
import { Principal } from '../access/principal';
import { parseIfMatch } from '../common/database/optimistic';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { BodyLimit } from '../common/http/body-limit';
import { isCsvContentType, prefersCsv } from '../common/http/csv-body';
import { IdParam } from '../common/http/params';
import { DocumentedCreate, DocumentedDelete, DocumentedRead, DocumentedUpdate } from '../common/http/route-docs';
import { Versioned } from '../common/http/versioned';
import { BuildingFloorQuery, ReferencePointInputDto, ReferencePointResponseDto, UpdateReferencePointDto } from './reference-points.dto';
import { ReferencePointsService } from './reference-points.service';

/** A survey of a few hundred points, three scans each of 30 readings, as CSV: about 2 MB. */
export const REFERENCE_POINTS_BODY_LIMIT_BYTES = 16 * 1024 * 1024;

const CSV_HELP =
  'Content negotiation: `Accept: text/csv` answers CSV, one row per reading (columns point,floor_id,x,y,lat,lng,type,uuid,major,minor,bssid,rssi; the rows of a point share its `point` label and position).';

@ApiTags('Infrastructure')
@Controller('infrastructure/reference_points')
export class ReferencePointsController {
  constructor(private readonly points: ReferencePointsService) {}

  @Get()
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: "A building's reference points (scans taken at known positions), of one floor with floor_id", description: CSV_HELP })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({ type: [ReferencePointResponseDto] })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: BuildingFloorQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Headers('accept') accept?: string,
  ): Promise<ReferencePointResponseDto[] | string> {
    if (!prefersCsv(accept)) return this.points.list(principal, query);
    reply.type('text/csv; charset=utf-8').header('Content-Disposition', `attachment; filename="reference-points-${query.building_id}.csv"`);
    return this.points.exportCsv(principal, query);
  }

  @Put()
  @BodyLimit(REFERENCE_POINTS_BODY_LIMIT_BYTES)
  @Access(AccessScope.CartographyWrite)
  @ApiOperation({
    summary: "Replace a building's reference points (of one floor with floor_id), in one transaction",
    description: `A JSON array of reference points, or a CSV body (Content-Type: text/csv); up to 16 MiB. ${CSV_HELP}`,
  })
  @ApiConsumes('application/json', 'text/csv')
  @ApiBody({ type: [ReferencePointInputDto] })
  @ApiOkResponse({ type: [ReferencePointResponseDto] })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto, description: 'The body is over 16 MiB' })
  replace(
    @CurrentPrincipal() principal: Principal,
    @Query() query: BuildingFloorQuery,
    @Body() body: unknown,
    @Headers('content-type') contentType?: string,
  ): Promise<ReferencePointResponseDto[]> {
    return isCsvContentType(contentType) ? this.points.replaceFromCsv(principal, query, body) : this.points.replace(principal, query, body);
  }

  @Post()
  @Access(AccessScope.CartographyWrite)
  @DocumentedCreate('Add a reference point: a scan taken at a known position (x/y floor metres or lat/lng)', ReferencePointResponseDto)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: ReferencePointInputDto): Promise<Versioned<ReferencePointResponseDto>> {
    return this.points.create(principal, dto);
  }

  @Get(':id')
  @Access(AccessScope.CartographyRead)
  @DocumentedRead('A reference point (ETag header)', ReferencePointResponseDto)
  get(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number): Promise<Versioned<ReferencePointResponseDto>> {
    return this.points.get(principal, id);
  }

  @Put(':id')
  @Access(AccessScope.CartographyWrite)
  @DocumentedUpdate('Update a reference point (readings sent replace those of their kind)', ReferencePointResponseDto)
  update(
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Body() dto: UpdateReferencePointDto,
    @Headers('if-match') ifMatch?: string,
  ): Promise<Versioned<ReferencePointResponseDto>> {
    return this.points.update(principal, id, dto, parseIfMatch(ifMatch));
  }

  @Delete(':id')
  @Access(AccessScope.CartographyWrite)
  @DocumentedDelete('Remove a reference point')
  remove(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number): Promise<void> {
    return this.points.remove(principal, id);
  }
}
