import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { Access } from '../access/decorators/access.decorator';
import { CurrentPrincipal } from '../access/decorators/current-principal.decorator';
import { AccessScope } from '../access/permissions';
import { Principal } from '../access/principal';
import { Role } from '../access/roles';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { OrganizationResponseDto, UpdateOrganizationDto } from './organizations.dto';
import { OrganizationsService } from './organizations.service';

@ApiTags('Organizations')
@Controller('organizations')
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Get('current_organization')
  @Access(AccessScope.Authenticated)
  @ApiOperation({ summary: "The caller's organization" })
  @ApiOkResponse({ type: OrganizationResponseDto })
  getCurrent(@CurrentPrincipal() principal: Principal): Promise<OrganizationResponseDto> {
    return this.organizations.getCurrent(principal);
  }

  @Put('current_organization')
  @Access(AccessScope.Write, { role: Role.AdminOrg })
  @ApiOperation({ summary: "Rename the caller's organization (ADMIN_ORG)" })
  @ApiOkResponse({ type: OrganizationResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  update(@CurrentPrincipal() principal: Principal, @Body() dto: UpdateOrganizationDto): Promise<OrganizationResponseDto> {
    return this.organizations.updateCurrent(principal, dto);
  }
}
