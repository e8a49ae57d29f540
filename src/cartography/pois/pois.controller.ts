import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { Access } from '../../access/decorators/access.decorator';
import { CurrentPrincipal } from '../../access/decorators/current-principal.decorator';
import { AccessScope } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { IfMatch } from '../../common/http/if-match';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { IdParam } from '../../common/http/params';
import { DocumentedCreate, DocumentedDelete, DocumentedRead, DocumentedUpdate } from '../../common/http/route-docs';
import { Versioned } from '../../common/http/versioned';
import { CreatePoiDto, ListPoisQuery, PoiResponseDto, UpdatePoiDto } from './pois.dto';
import { PoisService } from './pois.service';

@ApiTags('POIs')
@Controller()
export class PoisController {
  constructor(private readonly pois: PoisService) {}

  @Get('pois')
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: "The organization's POIs, optionally of one building and of one type" })
  @ApiOkResponse({ type: [PoiResponseDto] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListPoisQuery): Promise<PoiResponseDto[]> {
    return this.pois.list(principal, query);
  }

  @Get('buildings/:buildingId/pois')
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: 'The POIs of a building' })
  @ApiOkResponse({ type: [PoiResponseDto] })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  listForBuilding(@CurrentPrincipal() principal: Principal, @IdParam('buildingId') buildingId: number, @Query() query: ListPoisQuery): Promise<PoiResponseDto[]> {
    return this.pois.listForBuilding(principal, buildingId, query);
  }

  @Get('pois/:id')
  @Access(AccessScope.CartographyRead)
  @DocumentedRead('A POI (ETag header)', PoiResponseDto)
  get(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number): Promise<Versioned<PoiResponseDto>> {
    return this.pois.get(principal, id);
  }

  @Post('pois')
  @Access(AccessScope.CartographyWrite)
  @DocumentedCreate('Create a POI (georeferences or cartesians; the other is derived)', PoiResponseDto)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreatePoiDto): Promise<Versioned<PoiResponseDto>> {
    return this.pois.create(principal, dto);
  }

  @Post('pois_bulk')
  @HttpCode(201)
  @Access(AccessScope.CartographyWrite)
  @ApiOperation({ summary: 'Create up to 1000 POIs at once, all or nothing; errors name the item index ([i].field)' })
  @ApiBody({ type: [CreatePoiDto] })
  @ApiCreatedResponse({ type: [PoiResponseDto] })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  createBulk(@CurrentPrincipal() principal: Principal, @Body() body: unknown): Promise<PoiResponseDto[]> {
    return this.pois.createBulk(principal, body);
  }

  @Put('pois/:id')
  @Access(AccessScope.CartographyWrite)
  @DocumentedUpdate('Update a POI', PoiResponseDto)
  update(
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Body() dto: UpdatePoiDto,
    @IfMatch() ifMatch: number[] | undefined,
  ): Promise<Versioned<PoiResponseDto>> {
    return this.pois.update(principal, id, dto, ifMatch);
  }

  @Delete('pois/:id')
  @Access(AccessScope.CartographyWrite)
  @DocumentedDelete('Delete a POI')
  remove(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number): Promise<void> {
    return this.pois.remove(principal, id);
  }
}
