import { Body, Controller, Delete, Get, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../../access/decorators/access.decorator';
import { CurrentPrincipal } from '../../access/decorators/current-principal.decorator';
import { AccessScope } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { IfMatch } from '../../common/http/if-match';
import { IdParam } from '../../common/http/params';
import { DocumentedCreate, DocumentedDelete, DocumentedRead, DocumentedUpdate } from '../../common/http/route-docs';
import { Versioned } from '../../common/http/versioned';
import { CreatePoiCategoryDto, DeletePoiCategoryQuery, PoiCategoryResponseDto, UpdatePoiCategoryDto } from './poi-categories.dto';
import { PoiCategoriesService } from './poi-categories.service';

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
  @DocumentedRead('A POI category (ETag header)', PoiCategoryResponseDto)
  get(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number): Promise<Versioned<PoiCategoryResponseDto>> {
    return this.categories.get(principal, id);
  }

  @Post()
  @Access(AccessScope.CartographyWrite)
  @DocumentedCreate('Create a POI category (409 when the code is taken)', PoiCategoryResponseDto)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreatePoiCategoryDto): Promise<Versioned<PoiCategoryResponseDto>> {
    return this.categories.create(principal, dto);
  }

  @Put(':id')
  @Access(AccessScope.CartographyWrite)
  @DocumentedUpdate('Update a POI category', PoiCategoryResponseDto)
  update(
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Body() dto: UpdatePoiCategoryDto,
    @IfMatch() ifMatch: number[] | undefined,
  ): Promise<Versioned<PoiCategoryResponseDto>> {
    return this.categories.update(principal, id, dto, ifMatch);
  }

  @Delete(':id')
  @Access(AccessScope.CartographyWrite)
  @DocumentedDelete('Delete a POI category; 409 while POIs use it unless reassign_to={id}')
  remove(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number, @Query() query: DeletePoiCategoryQuery): Promise<void> {
    return this.categories.remove(principal, id, query.reassign_to);
  }
}
