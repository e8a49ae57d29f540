import { Body, Controller, Delete, Get, Headers, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiHeader, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { Access } from '../auth/decorators/access.decorator';
import { CurrentPrincipal } from '../auth/decorators/current-principal.decorator';
import { AccessScope } from '../auth/permissions';
import { Principal } from '../auth/principal';
import { CascadeQuery } from '../buildings/buildings.dto';
import { parseIfMatch } from '../common/database/optimistic';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { IdParam } from '../common/http/params';
import { Versioned } from '../common/http/versioned';
import { CreateFloorDto, FloorResponseDto, ListFloorsQuery, UpdateFloorDto } from './floors.dto';
import { FloorsService } from './floors.service';

const IF_MATCH = ApiHeader({ name: 'If-Match', required: false, description: 'ETag from a GET; a stale one answers 409' });

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
  @ApiOperation({ summary: 'A floor (ETag header)' })
  @ApiOkResponse({ type: FloorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  get(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number): Promise<Versioned<FloorResponseDto>> {
    return this.floors.get(principal, id);
  }

  @Post('floors')
  @HttpCode(201)
  @Access(AccessScope.CartographyWrite)
  @ApiOperation({ summary: 'Create a floor in a building' })
  @ApiCreatedResponse({ type: FloorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The building already has a floor at that level' })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateFloorDto): Promise<Versioned<FloorResponseDto>> {
    return this.floors.create(principal, dto);
  }

  @Put('floors/:id')
  @Access(AccessScope.CartographyWrite)
  @IF_MATCH
  @ApiOperation({ summary: 'Update a floor (partial)' })
  @ApiOkResponse({ type: FloorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  update(
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Body() dto: UpdateFloorDto,
    @Headers('if-match') ifMatch?: string,
  ): Promise<Versioned<FloorResponseDto>> {
    return this.floors.update(principal, id, dto, parseIfMatch(ifMatch));
  }

  @Delete('floors/:id')
  @HttpCode(204)
  @Access(AccessScope.CartographyWrite)
  @ApiOperation({ summary: 'Delete a floor; 409 while it has live geofences unless cascade=true' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto })
  remove(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number, @Query() query: CascadeQuery): Promise<void> {
    return this.floors.remove(principal, id, query.cascade === true);
  }
}
