import { Body, Controller, Delete, Get, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../../access/decorators/access.decorator';
import { CurrentPrincipal } from '../../access/decorators/current-principal.decorator';
import { AccessScope } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { IfMatch } from '../../common/http/if-match';
import { IdParam } from '../../common/http/params';
import { DocumentedCreate, DocumentedDelete, DocumentedRead, DocumentedUpdate } from '../../common/http/route-docs';
import { RawJson, Versioned } from '../../common/http/versioned';
import { BuildingDetailResponseDto, BuildingDeleteQuery, BuildingResponseDto, CreateBuildingDto, UpdateBuildingDto } from './buildings.dto';
import { BuildingsService } from './buildings.service';

@ApiTags('Buildings')
@Controller('buildings')
export class BuildingsController {
  constructor(private readonly buildings: BuildingsService) {}

  @Get()
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: "The organization's buildings" })
  @ApiOkResponse({ type: [BuildingResponseDto] })
  list(@CurrentPrincipal() principal: Principal): Promise<BuildingResponseDto[]> {
    return this.buildings.list(principal);
  }

  @Get(':id')
  @Access(AccessScope.CartographyRead)
  @DocumentedRead('A building with its floors, POIs, geofences and paths (ETag header)', BuildingDetailResponseDto)
  get(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number): Promise<Versioned<RawJson>> {
    return this.buildings.getDetail(principal, id);
  }

  @Post()
  @Access(AccessScope.CartographyWrite)
  @DocumentedCreate('Create a building', BuildingResponseDto)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateBuildingDto): Promise<Versioned<BuildingResponseDto>> {
    return this.buildings.create(principal, dto);
  }

  @Put(':id')
  @Access(AccessScope.CartographyWrite)
  @DocumentedUpdate('Update a building', BuildingResponseDto)
  update(
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Body() dto: UpdateBuildingDto,
    @IfMatch() ifMatch: number[] | undefined,
  ): Promise<Versioned<BuildingResponseDto>> {
    return this.buildings.update(principal, id, dto, ifMatch);
  }

  @Delete(':id')
  @Access(AccessScope.CartographyWrite)
  @DocumentedDelete('Delete a building with everything in it (floors, POIs, paths; geofences soft-deleted); with cascade=false, 409 while any remain')
  remove(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number, @Query() query: BuildingDeleteQuery): Promise<void> {
    return this.buildings.remove(principal, id, query.cascade !== false);
  }
}
