import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { Access } from '../auth/decorators/access.decorator';
import { CurrentPrincipal } from '../auth/decorators/current-principal.decorator';
import { AccessScope } from '../auth/permissions';
import { Principal } from '../auth/principal';
import { Role } from '../auth/roles';
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
