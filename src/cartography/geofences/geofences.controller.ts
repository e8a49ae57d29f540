import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { Access } from '../../access/decorators/access.decorator';
import { CurrentPrincipal } from '../../access/decorators/current-principal.decorator';
import { AccessScope } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { IfMatch } from '../../common/http/if-match';
import { UuidParam } from '../../common/http/params';
import { DocumentedCreate, DocumentedDelete, DocumentedRead, DocumentedUpdate } from '../../common/http/route-docs';
import { RawJson, Versioned } from '../../common/http/versioned';
import { ApiPaginatedResponse } from '../../common/pagination/api-paginated-response';
import { Page } from '../../common/pagination/pagination';
import { CreateGeofenceDto, GeofenceResponseDto, SearchGeofencesQuery, UpdateGeofenceDto } from './geofences.dto';
import { GeofencesService } from './geofences.service';

@ApiTags('Geofences')
@Controller('geofences')
export class GeofencesController {
  constructor(private readonly geofences: GeofencesService) {}

  @Get('search')
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: 'Search geofences (paginated); deleted ones only with deleted=true' })
  @ApiPaginatedResponse(GeofenceResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: "organization_id is not the caller's organization" })
  search(@CurrentPrincipal() principal: Principal, @Query() query: SearchGeofencesQuery): Promise<Page<GeofenceResponseDto>> {
    return this.geofences.search(principal, query);
  }

  @Get()
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: 'Same as /geofences/search' })
  @ApiPaginatedResponse(GeofenceResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: "organization_id is not the caller's organization" })
  list(@CurrentPrincipal() principal: Principal, @Query() query: SearchGeofencesQuery): Promise<Page<GeofenceResponseDto>> {
    return this.geofences.search(principal, query);
  }

  @Get(':id')
  @Access(AccessScope.CartographyRead)
  @DocumentedRead('A geofence, deleted ones included (ETag header)', GeofenceResponseDto)
  get(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<Versioned<RawJson>> {
    return this.geofences.get(principal, id);
  }

  @Post()
  @Access(AccessScope.CartographyWrite)
  @DocumentedCreate('Create a geofence', GeofenceResponseDto)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateGeofenceDto): Promise<Versioned<GeofenceResponseDto>> {
    return this.geofences.create(principal, dto);
  }

  @Put(':id')
  @Access(AccessScope.CartographyWrite)
  @DocumentedUpdate('Update a geofence', GeofenceResponseDto)
  update(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id') id: string,
    @Body() dto: UpdateGeofenceDto,
    @IfMatch() ifMatch: number[] | undefined,
  ): Promise<Versioned<GeofenceResponseDto>> {
    return this.geofences.update(principal, id, dto, ifMatch);
  }

  @Delete(':id')
  @Access(AccessScope.CartographyWrite)
  @DocumentedDelete('Soft-delete a geofence (kept, readable by id, with deleted: true)')
  remove(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<void> {
    return this.geofences.remove(principal, id);
  }

  @Post(':id/restore')
  @HttpCode(200)
  @Access(AccessScope.CartographyWrite)
  @ApiOperation({ summary: 'Undo the delete of a geofence: live again, as if created now (a live one answers as it is)' })
  @ApiOkResponse({ type: GeofenceResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'its floor (or building) was deleted' })
  restore(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<Versioned<GeofenceResponseDto>> {
    return this.geofences.restore(principal, id);
  }
}
