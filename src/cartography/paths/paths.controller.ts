import { Body, Controller, Get, Post, Put, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { Access } from '../../access/decorators/access.decorator';
import { CurrentPrincipal } from '../../access/decorators/current-principal.decorator';
import { AccessScope } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { ApiError } from '../../common/errors/api-error';
import { ErrorCode } from '../../common/errors/error-code';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { BodyLimit } from '../../common/http/body-limit';
import { IdParam } from '../../common/http/params';
import { Versioned } from '../../common/http/versioned';
import { ListPathsQuery, MAX_PATH_NODES, PathsResponseDto, ReplacePathsDto } from './paths.dto';
import { PathsService } from './paths.service';

const methodNotAllowed = (allow: string) => new ApiError(405, ErrorCode.MethodNotAllowed, `Use ${allow} on this route`, [], { Allow: allow });
/**
 * A graph of MAX_PATH_NODES nodes and four links each is about 6 MB of JSON: the paths' replacement
 * takes up to 16 MiB (the 1 MiB of other routes holds about 7,000 nodes, fewer than the DTO allows).
 */
export const PATHS_BODY_LIMIT_BYTES = 16 * 1024 * 1024;

const METHOD_NOT_ALLOWED = ApiResponse({ status: 405, type: ErrorResponseDto, description: 'Paths are replaced whole with PUT' });

@ApiTags('Paths')
@Controller()
export class PathsController {
  constructor(private readonly paths: PathsService) {}

  @Get('paths')
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: 'The wayfinding graphs of the organization, optionally of one building' })
  @ApiOkResponse({ type: [PathsResponseDto] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListPathsQuery): Promise<PathsResponseDto[]> {
    return this.paths.list(principal, query.building_id);
  }

  @Get('buildings/:buildingId/paths')
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: "A building's wayfinding graph (404 until one is stored)" })
  @ApiOkResponse({ type: PathsResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  get(@CurrentPrincipal() principal: Principal, @IdParam('buildingId') buildingId: number): Promise<Versioned<PathsResponseDto>> {
    return this.paths.getForBuilding(principal, buildingId);
  }

  @Put('buildings/:buildingId/paths')
  @Access(AccessScope.CartographyWrite)
  @BodyLimit(PATHS_BODY_LIMIT_BYTES)
  @ApiOperation({ summary: `Replace a building's whole graph (up to ${MAX_PATH_NODES} nodes, a body of up to 16 MiB); links name nodes, nodes name floors of the building` })
  @ApiOkResponse({ type: PathsResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  replace(@CurrentPrincipal() principal: Principal, @IdParam('buildingId') buildingId: number, @Body() dto: ReplacePathsDto): Promise<Versioned<PathsResponseDto>> {
    return this.paths.replace(principal, buildingId, dto);
  }

  @Post('paths')
  @Access(AccessScope.Authenticated)
  @ApiOperation({ summary: 'Not allowed: 405 (use PUT /api/v1/buildings/{id}/paths)' })
  @METHOD_NOT_ALLOWED
  createList(): never {
    throw methodNotAllowed('GET');
  }

  @Post('buildings/:buildingId/paths')
  @Access(AccessScope.Authenticated)
  @ApiOperation({ summary: 'Not allowed: 405 (use PUT)' })
  @METHOD_NOT_ALLOWED
  create(): never {
    throw methodNotAllowed('GET, PUT, PATCH');
  }
}
