import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../access/decorators/access.decorator';
import { CurrentPrincipal } from '../access/decorators/current-principal.decorator';
import { AccessScope } from '../access/permissions';
import { Principal } from '../access/principal';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { RadioModelsService } from './radio-models.service';
import { BuildingFloorQuery, RadioModelResponseDto } from './reference-points.dto';

@ApiTags('Infrastructure')
@Controller('infrastructure')
export class RadioModelController {
  constructor(private readonly radio: RadioModelsService) {}

  @Get('radio_model')
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: 'The radio model positions from scans use on each floor of a building: exponent, shadowing, per-transmitter offsets, what it rests on, the method' })
  @ApiOkResponse({ type: RadioModelResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  describe(@CurrentPrincipal() principal: Principal, @Query() query: BuildingFloorQuery): Promise<RadioModelResponseDto> {
    return this.radio.describe(principal, query);
  }
}
