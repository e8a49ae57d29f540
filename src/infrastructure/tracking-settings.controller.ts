import { Body, Controller, Get, Put, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { Access } from '../access/decorators/access.decorator';
import { CurrentPrincipal } from '../access/decorators/current-principal.decorator';
import { AccessScope } from '../access/permissions';
import { Principal } from '../access/principal';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { BuildingFloorQuery } from './reference-points.dto';
import { TrackingSettingsResponseDto, UpdateTrackingSettingsDto } from './tracking-settings.dto';
import { TrackingSettingsService } from './tracking-settings.service';

@ApiTags('Infrastructure')
@Controller('infrastructure')
export class TrackingSettingsController {
  constructor(private readonly settings: TrackingSettingsService) {}

  @Get('tracking')
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: "A building's tracking settings: whether positions from scans are tracked, and after how long a silent device's track starts afresh" })
  @ApiOkResponse({ type: TrackingSettingsResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  get(@CurrentPrincipal() principal: Principal, @Query() query: BuildingFloorQuery): Promise<TrackingSettingsResponseDto> {
    return this.settings.get(principal, query.building_id);
  }

  @Put('tracking')
  @Access(AccessScope.CartographyWrite)
  @ApiOperation({ summary: "Set some of a building's tracking settings (partial; PATCH works too)" })
  @ApiOkResponse({ type: TrackingSettingsResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'A field out of range, named in errors[].fields' })
  update(@CurrentPrincipal() principal: Principal, @Query() query: BuildingFloorQuery, @Body() body: UpdateTrackingSettingsDto): Promise<TrackingSettingsResponseDto> {
    return this.settings.update(principal, query.building_id, body);
  }
}
