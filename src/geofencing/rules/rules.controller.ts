import { Body, Controller, Delete, Get, Put } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { Access } from '../../access/decorators/access.decorator';
import { CurrentPrincipal } from '../../access/decorators/current-principal.decorator';
import { AccessScope } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { Role } from '../../access/roles';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { UuidParam } from '../../common/http/params';
import { DocumentedDelete, DocumentedRead } from '../../common/http/route-docs';
import { GeofenceRulesPatchDto, GeofenceRulesResponseDto, GeofencingSettingsResponseDto } from './rules.dto';
import { GeofencingRulesService } from './rules.service';

const RulesBody = () => ApiBody({ type: GeofenceRulesPatchDto, description: 'Any subset of the rules; null returns a field to its inherited value' });

@ApiTags('Geofencing')
@Controller()
export class GeofencingRulesController {
  constructor(private readonly rules: GeofencingRulesService) {}

  @Get('geofences/:id/rules')
  @Access(AccessScope.Read)
  @DocumentedRead("The rules that apply to a geofence (its own over its organization's settings), and which it sets itself", GeofenceRulesResponseDto)
  getFenceRules(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<GeofenceRulesResponseDto> {
    return this.rules.getFenceRules(principal, id);
  }

  @Put('geofences/:id/rules')
  @Access(AccessScope.CartographyWrite)
  @ApiOperation({ summary: "Set some of a geofence's own rules (partial; PATCH works too)" })
  @RulesBody()
  @ApiOkResponse({ type: GeofenceRulesResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'A field out of range, named in errors[].fields' })
  updateFenceRules(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string, @Body() body: Record<string, unknown>): Promise<GeofenceRulesResponseDto> {
    return this.rules.updateFenceRules(principal, id, body);
  }

  @Delete('geofences/:id/rules')
  @Access(AccessScope.CartographyWrite)
  @DocumentedDelete("Drop a geofence's own rules: it follows the organization's settings again")
  resetFenceRules(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<void> {
    return this.rules.resetFenceRules(principal, id);
  }

  @Get('geofencing/settings')
  @Access(AccessScope.Read)
  @ApiOperation({ summary: "The organization's default geofence rules, and which of them it sets" })
  @ApiOkResponse({ type: GeofencingSettingsResponseDto })
  getSettings(@CurrentPrincipal() principal: Principal): Promise<GeofencingSettingsResponseDto> {
    return this.rules.getSettings(principal);
  }

  @Put('geofencing/settings')
  // Organization-wide: every fence without rules of its own follows them (issue 27: administration).
  @Access(AccessScope.CartographyWrite, { role: Role.AdminOrg })
  @ApiOperation({ summary: "Set some of the organization's default geofence rules (partial; PATCH works too)" })
  @RulesBody()
  @ApiOkResponse({ type: GeofencingSettingsResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'A field out of range, named in errors[].fields' })
  updateSettings(@CurrentPrincipal() principal: Principal, @Body() body: Record<string, unknown>): Promise<GeofencingSettingsResponseDto> {
    return this.rules.updateSettings(principal, body);
  }
}
