import { Body, Controller, Delete, Get, Headers, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags, ApiUnprocessableEntityResponse, ApiConflictResponse } from '@nestjs/swagger';
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
import {
  BleInputDto,
  BleResponseDto,
  InfrastructureQuery,
  InfrastructureResponseDto,
  ReplaceInfrastructureBodyDto,
  ReplaceInfrastructureQuery,
  UpdateBleDto,
  UpdateWifiDto,
  WifiInputDto,
  WifiResponseDto,
} from './infrastructure.dto';
import { InfrastructureService } from './infrastructure.service';
import { BLE, WIFI } from './transmitter-kinds';

const CSV_HELP =
  'Content negotiation: `Accept: text/csv` answers the CSV spreadsheet format (one row per transmitter, columns type,id,floor_id,x,y,lat,lng,bssid,ssid,frequency,uuid,major,minor,tx_power,battery).';

@ApiTags('Infrastructure')
@Controller('infrastructure')
export class InfrastructureController {
  constructor(private readonly infrastructure: InfrastructureService) {}

  @Get()
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: "A building's wifi access points and BLE beacons", description: CSV_HELP })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({ type: InfrastructureResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async read(
    @CurrentPrincipal() principal: Principal,
    @Query() query: InfrastructureQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Headers('accept') accept?: string,
  ): Promise<InfrastructureResponseDto | string> {
    if (!prefersCsv(accept)) return this.infrastructure.read(principal, query);
    const csv = await this.infrastructure.exportCsv(principal, query);
    reply.type('text/csv; charset=utf-8').header('Content-Disposition', `attachment; filename="infrastructure-${query.building_id}.csv"`);
    return csv;
  }

  @Put()
  @Access(AccessScope.CartographyWrite)
  @ApiOperation({
    summary: "Replace a building's access points and beacons (of one type with type=), in one transaction",
    description: `JSON in the GET shape (ids, timestamps and beacon_uuids are ignored; a transmitter already there keeps its id), or a CSV body (Content-Type: text/csv). ${CSV_HELP}`,
  })
  @ApiConsumes('application/json', 'text/csv')
  @ApiProduces('application/json', 'text/csv')
  @ApiBody({ type: ReplaceInfrastructureBodyDto })
  @ApiOkResponse({ type: InfrastructureResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  async replace(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ReplaceInfrastructureQuery,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Headers('content-type') contentType?: string,
    @Headers('accept') accept?: string,
  ): Promise<InfrastructureResponseDto | string> {
    const document = isCsvContentType(contentType) ? await this.infrastructure.replaceFromCsv(principal, query, body) : await this.infrastructure.replace(principal, query, body);
    if (!prefersCsv(accept)) return document;
    reply.type('text/csv; charset=utf-8');
    return this.infrastructure.exportCsv(principal, { building_id: query.building_id });
  }

  @Post('wifi')
  @Access(AccessScope.CartographyWrite)
  @DocumentedCreate('Add a wifi access point (x/y floor metres or lat/lng; the other is derived)', WifiResponseDto)
  createWifi(@CurrentPrincipal() principal: Principal, @Body() dto: WifiInputDto): Promise<Versioned<unknown>> {
    return this.infrastructure.create(principal, WIFI, dto);
  }

  @Get('wifi/:id')
  @Access(AccessScope.CartographyRead)
  @DocumentedRead('A wifi access point (ETag header)', WifiResponseDto)
  getWifi(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number): Promise<Versioned<unknown>> {
    return this.infrastructure.get(principal, WIFI, id);
  }

  @Put('wifi/:id')
  @Access(AccessScope.CartographyWrite)
  @DocumentedUpdate('Update a wifi access point', WifiResponseDto)
  updateWifi(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number, @Body() dto: UpdateWifiDto, @Headers('if-match') ifMatch?: string): Promise<Versioned<unknown>> {
    return this.infrastructure.update(principal, WIFI, id, dto, parseIfMatch(ifMatch));
  }

  @Delete('wifi/:id')
  @Access(AccessScope.CartographyWrite)
  @DocumentedDelete('Remove a wifi access point')
  removeWifi(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number): Promise<void> {
    return this.infrastructure.remove(principal, WIFI, id);
  }

  @Post('ble')
  @Access(AccessScope.CartographyWrite)
  @DocumentedCreate('Add a BLE beacon (x/y floor metres or lat/lng; the other is derived)', BleResponseDto)
  createBle(@CurrentPrincipal() principal: Principal, @Body() dto: BleInputDto): Promise<Versioned<unknown>> {
    return this.infrastructure.create(principal, BLE, dto);
  }

  @Get('ble/:id')
  @Access(AccessScope.CartographyRead)
  @DocumentedRead('A BLE beacon (ETag header)', BleResponseDto)
  getBle(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number): Promise<Versioned<unknown>> {
    return this.infrastructure.get(principal, BLE, id);
  }

  @Put('ble/:id')
  @Access(AccessScope.CartographyWrite)
  @DocumentedUpdate('Update a BLE beacon', BleResponseDto)
  updateBle(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number, @Body() dto: UpdateBleDto, @Headers('if-match') ifMatch?: string): Promise<Versioned<unknown>> {
    return this.infrastructure.update(principal, BLE, id, dto, parseIfMatch(ifMatch));
  }

  @Delete('ble/:id')
  @Access(AccessScope.CartographyWrite)
  @DocumentedDelete('Remove a BLE beacon')
  removeBle(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number): Promise<void> {
    return this.infrastructure.remove(principal, BLE, id);
  }
}
