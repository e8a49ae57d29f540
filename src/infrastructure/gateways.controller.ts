import { Body, Controller, Delete, Get, Headers, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBody, ApiConflictResponse, ApiConsumes, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Access } from '../access/decorators/access.decorator';
import { CurrentPrincipal } from '../access/decorators/current-principal.decorator';
import { AccessScope } from '../access/permissions';
import { Principal } from '../access/principal';
import { parseIfMatch } from '../common/database/optimistic';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { isCsvContentType, prefersCsv } from '../common/http/csv-body';
import { IdParam } from '../common/http/params';
import { DocumentedCreate, DocumentedDelete, DocumentedRead, DocumentedUpdate } from '../common/http/route-docs';
import { Versioned } from '../common/http/versioned';
import { GATEWAY_CSV_COLUMNS } from './gateways.csv';
import { GatewayHealthDto, GatewayInputDto, GatewayResponseDto, GatewaysQuery, UpdateGatewayDto } from './gateways.dto';
import { GatewaysService } from './gateways.service';

const CSV_HELP = `Content negotiation: \`Accept: text/csv\` answers the CSV spreadsheet format (one row per gateway, columns ${GATEWAY_CSV_COLUMNS.join(',')}).`;

@ApiTags('Infrastructure')
@Controller('infrastructure/gateways')
export class GatewaysController {
  constructor(private readonly gateways: GatewaysService) {}

  @Get()
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: "A building's BLE gateways", description: CSV_HELP })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({ type: [GatewayResponseDto] })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: GatewaysQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Headers('accept') accept?: string,
  ): Promise<GatewayResponseDto[] | string> {
    if (!prefersCsv(accept)) return this.gateways.list(principal, query);
    const csv = await this.gateways.exportCsv(principal, query);
    reply.type('text/csv; charset=utf-8').header('Content-Disposition', `attachment; filename="gateways-${query.building_id}.csv"`);
    return csv;
  }

  @Put()
  @Access(AccessScope.CartographyWrite)
  @ApiOperation({
    summary: "Replace a building's gateways, in one transaction",
    description: `A JSON array of gateways (ids and timestamps are ignored; a gateway already there, by hardware_id, keeps its id), or a CSV body (Content-Type: text/csv). ${CSV_HELP}`,
  })
  @ApiConsumes('application/json', 'text/csv')
  @ApiProduces('application/json', 'text/csv')
  @ApiBody({ type: [GatewayInputDto] })
  @ApiOkResponse({ type: [GatewayResponseDto] })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  async replace(
    @CurrentPrincipal() principal: Principal,
    @Query() query: GatewaysQuery,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Headers('content-type') contentType?: string,
    @Headers('accept') accept?: string,
  ): Promise<GatewayResponseDto[] | string> {
    const list = isCsvContentType(contentType) ? await this.gateways.replaceFromCsv(principal, query, body) : await this.gateways.replace(principal, query, body);
    if (!prefersCsv(accept)) return list;
    reply.type('text/csv; charset=utf-8');
    return this.gateways.exportCsv(principal, { building_id: query.building_id });
  }

  @Post()
  @Access(AccessScope.CartographyWrite)
  @DocumentedCreate('Register a gateway (x/y floor metres or lat/lng; the other is derived)', GatewayResponseDto)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: GatewayInputDto): Promise<Versioned<GatewayResponseDto>> {
    return this.gateways.create(principal, dto);
  }

  @Get(':id')
  @Access(AccessScope.CartographyRead)
  @DocumentedRead('A gateway (ETag header)', GatewayResponseDto)
  get(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number): Promise<Versioned<GatewayResponseDto>> {
    return this.gateways.get(principal, id);
  }

  @Put(':id')
  @Access(AccessScope.CartographyWrite)
  @DocumentedUpdate('Update a gateway', GatewayResponseDto)
  update(
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Body() dto: UpdateGatewayDto,
    @Headers('if-match') ifMatch?: string,
  ): Promise<Versioned<GatewayResponseDto>> {
    return this.gateways.update(principal, id, dto, parseIfMatch(ifMatch));
  }

  @Delete(':id')
  @Access(AccessScope.CartographyWrite)
  @DocumentedDelete('Remove a gateway, its health and its observations')
  remove(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number): Promise<void> {
    return this.gateways.remove(principal, id);
  }

  @Get(':id/health')
  @Access(AccessScope.CartographyRead)
  @DocumentedRead("A gateway's health: last seen, messages per second, tags heard, messages not understood and why", GatewayHealthDto)
  health(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number): Promise<GatewayHealthDto> {
    return this.gateways.healthOf(principal, id);
  }
}
