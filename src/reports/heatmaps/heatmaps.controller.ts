import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { Access } from '../../access/decorators/access.decorator';
import { CurrentPrincipal } from '../../access/decorators/current-principal.decorator';
import { AccessScope } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { IdParam } from '../../common/http/params';
import { HeatmapQuery, HeatmapResponseDto } from './heatmaps.dto';
import { HeatmapsService } from './heatmaps.service';

@ApiTags('Heatmaps')
@Controller('floors')
export class HeatmapsController {
  constructor(private readonly heatmaps: HeatmapsService) {}

  @Get(':id/heatmap')
  @Access(AccessScope.Read)
  @ApiOperation({ summary: 'Density of positions on a floor over a range: fixes per square cell of the floor grid' })
  @ApiOkResponse({ type: HeatmapResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  floorHeatmap(@CurrentPrincipal() principal: Principal, @IdParam('id') id: number, @Query() query: HeatmapQuery): Promise<HeatmapResponseDto> {
    return this.heatmaps.floorHeatmap(principal, id, query);
  }
}
