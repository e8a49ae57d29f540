import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { Access } from '../../access/decorators/access.decorator';
import { CurrentPrincipal } from '../../access/decorators/current-principal.decorator';
import { AccessScope } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { IdParam } from '../../common/http/params';
import { DirectionsRequestDto, DirectionsResponseDto } from './directions.dto';
import { DirectionsService } from './directions.service';

@ApiTags('Paths')
@Controller()
export class DirectionsController {
  constructor(private readonly directions: DirectionsService) {}

  @Post('buildings/:buildingId/directions')
  @HttpCode(200)
  @Access(AccessScope.CartographyRead)
  @ApiOperation({
    summary: 'A route over the building’s paths from a point, POI or device to a point, POI or the nearest POI of a category (a read: positioning keys may call it)',
  })
  @ApiOkResponse({ type: DirectionsResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'The building, or a POI, category or device named, is not the caller’s' })
  @ApiUnprocessableEntityResponse({
    type: ErrorResponseDto,
    description: 'validation_failed naming the field; end_unreachable (an end farther than the snap distance from a usable path); no_route',
  })
  route(@CurrentPrincipal() principal: Principal, @IdParam('buildingId') buildingId: number, @Body() dto: DirectionsRequestDto): Promise<DirectionsResponseDto> {
    return this.directions.directions(principal, buildingId, dto);
  }
}
