import { Body, Controller, Delete, Get, Headers, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiHeader, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { Access } from '../auth/decorators/access.decorator';
import { CurrentPrincipal } from '../auth/decorators/current-principal.decorator';
import { AccessScope } from '../auth/permissions';
import { Principal } from '../auth/principal';
import { parseIfMatch } from '../common/database/optimistic';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { UuidParam } from '../common/http/params';
import { Versioned } from '../common/http/versioned';
import { ApiPaginatedResponse } from '../common/pagination/api-paginated-response';
import { Page } from '../common/pagination/pagination';
import { CreateGeofenceDto, GeofenceResponseDto, SearchGeofencesQuery, UpdateGeofenceDto } from './geofences.dto';
import { GeofencesService } from './geofences.service';

const IF_MATCH = ApiHeader({ name: 'If-Match', required: false, description: 'ETag from a GET; a stale one answers 409' });
const PAGE_OF_GEOFENCES = ApiPaginatedResponse(GeofenceResponseDto);

@ApiTags('Geofences')
@Controller('geofences')
export class GeofencesController {
  constructor(private readonly geofences: GeofencesService) {}

  @Get('search')
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: 'Search geofences (paginated); deleted ones only with deleted=true' })
  @PAGE_OF_GEOFENCES
  search(@CurrentPrincipal() principal: Principal, @Query() query: SearchGeofencesQuery): Promise<Page<GeofenceResponseDto>> {
    return this.geofences.search(principal, query);
  }

  @Get()
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: 'Same as /geofences/search' })
  @PAGE_OF_GEOFENCES
  list(@CurrentPrincipal() principal: Principal, @Query() query: SearchGeofencesQuery): Promise<Page<GeofenceResponseDto>> {
    return this.geofences.search(principal, query);
  }

  @Get(':id')
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: 'A geofence, deleted ones included (ETag header)' })
  @ApiOkResponse({ type: GeofenceResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  get(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<Versioned<GeofenceResponseDto>> {
    return this.geofences.get(principal, id);
  }

  @Post()
  @HttpCode(201)
  @Access(AccessScope.CartographyWrite)
  @ApiOperation({ summary: 'Create a geofence' })
  @ApiCreatedResponse({ type: GeofenceResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateGeofenceDto): Promise<Versioned<GeofenceResponseDto>> {
    return this.geofences.create(principal, dto);
  }

  @Put(':id')
  @Access(AccessScope.CartographyWrite)
  @IF_MATCH
  @ApiOperation({ summary: 'Update a geofence (partial)' })
  @ApiOkResponse({ type: GeofenceResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  update(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id') id: string,
    @Body() dto: UpdateGeofenceDto,
    @Headers('if-match') ifMatch?: string,
  ): Promise<Versioned<GeofenceResponseDto>> {
    return this.geofences.update(principal, id, dto, parseIfMatch(ifMatch));
  }

  @Delete(':id')
  @HttpCode(204)
  @Access(AccessScope.CartographyWrite)
  @ApiOperation({ summary: 'Soft-delete a geofence (kept, readable by id, with deleted: true)' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  remove(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<void> {
    return this.geofences.remove(principal, id);
  }
}
