import { Body, Controller, Delete, Get, Post, Put, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../../access/decorators/access.decorator';
import { CurrentPrincipal } from '../../access/decorators/current-principal.decorator';
import { AccessScope } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { CascadeQuery } from '../buildings/buildings.dto';
import { IfMatch } from '../../common/http/if-match';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { IdParam } from '../../common/http/params';
import { DocumentedCreate, DocumentedDelete, DocumentedRead, DocumentedUpdate } from '../../common/http/route-docs';
import { Versioned } from '../../common/http/versioned';
import { CreateFloorDto, FloorResponseDto, ListFloorsQuery, UpdateFloorDto } from './floors.dto';
import { FloorsService } from './floors.service';

@ApiTags('Floors')
@Controller()
export class FloorsController {
  constructor(private readonly floors: FloorsService) {}

  @Get('floors')
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: "The organization's floors, optionally of one building" })
  @ApiOkResponse({ type: [FloorResponseDto] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListFloorsQuery): Promise<FloorResponseDto[]> {
    return this.floors.list(principal, query.building_id);
  }

  @Get('buildings/:buildingId/floors')
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: 'The floors of a building' })
  @ApiOkResponse({ type: [FloorResponseDto] })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  listForBuilding(@CurrentPrincipal() principal: Principal, @IdParam('buildingId') buildingId: number): Promise<FloorResponseDto[]> {
    return this.floors.listForBuilding(principal, buildingId);
  }

  @Get('floors/:id')
  @Access(AccessScope.CartographyRead)
  @DocumentedRead('A floor (ETag header)', FloorResponseDto)
  get(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number): Promise<Versioned<FloorResponseDto>> {
    return this.floors.get(principal, id);
  }

  @Post('floors')
  @Access(AccessScope.CartographyWrite)
  @DocumentedCreate('Create a floor in a building (409 when the level is taken)', FloorResponseDto)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateFloorDto): Promise<Versioned<FloorResponseDto>> {
    return this.floors.create(principal, dto);
  }

  @Put('floors/:id')
  @Access(AccessScope.CartographyWrite)
  @DocumentedUpdate('Update a floor', FloorResponseDto)
  update(
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Body() dto: UpdateFloorDto,
    @IfMatch() ifMatch: number[] | undefined,
  ): Promise<Versioned<FloorResponseDto>> {
    return this.floors.update(principal, id, dto, ifMatch);
  }

  @Delete('floors/:id')
  @Access(AccessScope.CartographyWrite)
  @DocumentedDelete('Delete a floor; 409 while geofences, POIs or path nodes remain unless cascade=true')
  remove(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number, @Query() query: CascadeQuery): Promise<void> {
    return this.floors.remove(principal, id, query.cascade === true);
  }
}
