import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { Access } from '../access/decorators/access.decorator';
import { CurrentPrincipal } from '../access/decorators/current-principal.decorator';
import { AccessScope } from '../access/permissions';
import { Principal } from '../access/principal';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { NavigationRequestDto, NavigationResponseDto } from './navigation.dto';
import { NavigationService } from './navigation.service';

@ApiTags('Devices')
@Controller('devices/:id/navigation')
export class NavigationController {
  constructor(private readonly navigation: NavigationService) {}

  @Put()
  @Access(AccessScope.PositionsWrite)
  @ApiOperation({
    summary:
      'Start guiding the device to a destination (a directions request without from: the route starts at its live position); replaces a guidance it had. Positioning keys may call it',
  })
  @ApiOkResponse({ type: NavigationResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'The device, or a POI or category named, is not the caller’s' })
  @ApiUnprocessableEntityResponse({
    type: ErrorResponseDto,
    description: 'validation_failed naming the field (from is refused; device_id: no live position on a floor of a building); end_unreachable; no_route',
  })
  start(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() dto: NavigationRequestDto): Promise<NavigationResponseDto> {
    return this.navigation.start(principal, id, dto);
  }

  @Get()
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: "The device's progress along its route (a read of a route, as directions: positioning keys may call it)" })
  @ApiOkResponse({ type: NavigationResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'The device is not guided (never, ended, or arrived)' })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<NavigationResponseDto> {
    return this.navigation.get(principal, id);
  }

  @Delete()
  @HttpCode(204)
  @Access(AccessScope.PositionsWrite)
  @ApiOperation({ summary: "End the device's guidance" })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'The device is not guided' })
  end(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.navigation.end(principal, id);
  }
}
