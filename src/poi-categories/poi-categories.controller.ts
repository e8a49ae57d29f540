import { Body, Controller, Delete, Get, Headers, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiHeader, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { Access } from '../auth/decorators/access.decorator';
import { CurrentPrincipal } from '../auth/decorators/current-principal.decorator';
import { AccessScope } from '../auth/permissions';
import { Principal } from '../auth/principal';
import { parseIfMatch } from '../common/database/optimistic';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { IdParam } from '../common/http/params';
import { Versioned } from '../common/http/versioned';
import { CreatePoiCategoryDto, DeletePoiCategoryQuery, PoiCategoryResponseDto, UpdatePoiCategoryDto } from './poi-categories.dto';
import { PoiCategoriesService } from './poi-categories.service';

const IF_MATCH = ApiHeader({ name: 'If-Match', required: false, description: 'ETag from a GET; a stale one answers 409' });

@ApiTags('POI categories')
@Controller('poi_categories')
export class PoiCategoriesController {
  constructor(private readonly categories: PoiCategoriesService) {}

  @Get()
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: "The organization's POI categories" })
  @ApiOkResponse({ type: [PoiCategoryResponseDto] })
  list(@CurrentPrincipal() principal: Principal): Promise<PoiCategoryResponseDto[]> {
    return this.categories.list(principal);
  }

  @Get(':id')
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: 'A POI category (ETag header)' })
  @ApiOkResponse({ type: PoiCategoryResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  get(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number): Promise<Versioned<PoiCategoryResponseDto>> {
    return this.categories.get(principal, id);
  }

  @Post()
  @HttpCode(201)
  @Access(AccessScope.CartographyWrite)
  @ApiOperation({ summary: 'Create a POI category' })
  @ApiCreatedResponse({ type: PoiCategoryResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The code is taken' })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreatePoiCategoryDto): Promise<Versioned<PoiCategoryResponseDto>> {
    return this.categories.create(principal, dto);
  }

  @Put(':id')
  @Access(AccessScope.CartographyWrite)
  @IF_MATCH
  @ApiOperation({ summary: 'Update a POI category (partial)' })
  @ApiOkResponse({ type: PoiCategoryResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  update(
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Body() dto: UpdatePoiCategoryDto,
    @Headers('if-match') ifMatch?: string,
  ): Promise<Versioned<PoiCategoryResponseDto>> {
    return this.categories.update(principal, id, dto, parseIfMatch(ifMatch));
  }

  @Delete(':id')
  @HttpCode(204)
  @Access(AccessScope.CartographyWrite)
  @ApiOperation({ summary: 'Delete a POI category; 409 while POIs use it unless reassign_to={id}' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto })
  remove(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number, @Query() query: DeletePoiCategoryQuery): Promise<void> {
    return this.categories.remove(principal, id, query.reassign_to);
  }
}
