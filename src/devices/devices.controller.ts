import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { Access } from '../access/decorators/access.decorator';
import { CurrentPrincipal } from '../access/decorators/current-principal.decorator';
import { AccessScope } from '../access/permissions';
import { Principal } from '../access/principal';
import { Role } from '../access/roles';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { ApiPaginatedResponse } from '../common/pagination/api-paginated-response';
import { Page } from '../common/pagination/pagination';
import { CreateDeviceDto, DeviceResponseDto, ListDevicesQuery, UpdateDeviceDto } from './devices.dto';
import { DevicesService } from './devices.service';

@ApiTags('Devices')
@Controller('devices')
export class DevicesController {
  constructor(private readonly devices: DevicesService) {}

  @Get()
  @Access(AccessScope.Read)
  @ApiOperation({ summary: "The organization's devices (paginated), with last seen time and last position" })
  @ApiPaginatedResponse(DeviceResponseDto)
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListDevicesQuery): Promise<Page<DeviceResponseDto>> {
    return this.devices.list(principal, query);
  }

  @Post()
  @HttpCode(201)
  @Access(AccessScope.Write, { role: Role.AdminOrg })
  @ApiOperation({ summary: 'Register a device before its first fix, with its tag identity for BLE gateways (ADMIN_ORG)' })
  @ApiCreatedResponse({ type: DeviceResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateDeviceDto): Promise<DeviceResponseDto> {
    return this.devices.create(principal, dto);
  }

  @Get(':id')
  @Access(AccessScope.Read)
  @ApiOperation({ summary: 'A device, with last seen time and last position' })
  @ApiOkResponse({ type: DeviceResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<DeviceResponseDto> {
    return this.devices.get(principal, id);
  }

  @Put(':id')
  @Access(AccessScope.Write, { role: Role.AdminOrg })
  @ApiOperation({ summary: 'Rename a device or change its tag identity (ADMIN_ORG; partial, PATCH works too)' })
  @ApiOkResponse({ type: DeviceResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  update(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() dto: UpdateDeviceDto): Promise<DeviceResponseDto> {
    return this.devices.update(principal, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Access(AccessScope.Write, { role: Role.AdminOrg })
  @ApiOperation({ summary: 'Delete a device and its position history (ADMIN_ORG)' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.devices.remove(principal, id);
  }
}
