import { Body, Controller, Delete, Get, Headers, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiHeader, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { Access } from '../auth/decorators/access.decorator';
import { CurrentPrincipal } from '../auth/decorators/current-principal.decorator';
import { AccessScope } from '../auth/permissions';
import { Principal } from '../auth/principal';
import { parseIfMatch } from '../common/database/optimistic';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { IdParam } from '../common/http/params';
import { RawJson, Versioned } from '../common/http/versioned';
import { BuildingDetailResponseDto, BuildingResponseDto, CascadeQuery, CreateBuildingDto, UpdateBuildingDto } from './buildings.dto';
import { BuildingsService } from './buildings.service';

const IF_MATCH = ApiHeader({ name: 'If-Match', required: false, description: 'ETag from a GET; a stale one answers 409' });

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
  @ApiOperation({ summary: 'A building with its floors and geofences (ETag header)' })
  @ApiOkResponse({ type: BuildingDetailResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  get(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number): Promise<Versioned<RawJson>> {
    return this.buildings.getDetail(principal, id);
  }

  @Post()
  @HttpCode(201)
  @Access(AccessScope.CartographyWrite)
  @ApiOperation({ summary: 'Create a building' })
  @ApiCreatedResponse({ type: BuildingResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateBuildingDto): Promise<Versioned<BuildingResponseDto>> {
    return this.buildings.create(principal, dto);
  }

  @Put(':id')
  @Access(AccessScope.CartographyWrite)
  @IF_MATCH
  @ApiOperation({ summary: 'Update a building (partial)' })
  @ApiOkResponse({ type: BuildingResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  update(
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Body() dto: UpdateBuildingDto,
    @Headers('if-match') ifMatch?: string,
  ): Promise<Versioned<BuildingResponseDto>> {
    return this.buildings.update(principal, id, dto, parseIfMatch(ifMatch));
  }

  @Delete(':id')
  @HttpCode(204)
  @Access(AccessScope.CartographyWrite)
  @ApiOperation({ summary: 'Delete a building and its floors; 409 while it has live geofences unless cascade=true' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto })
  remove(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number, @Query() query: CascadeQuery): Promise<void> {
    return this.buildings.remove(principal, id, query.cascade === true);
  }
}
