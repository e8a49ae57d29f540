import { effectiveRules, GeofenceRules, RULE_NAMES } from '../engine/rules';
import { GeofenceRulesResponseDto, GeofencingSettingsResponseDto } from './rules.dto';

/** A fence's rules on the wire: what applies to it (its own over its organization's), and what it sets itself. */
export function toGeofenceRulesResponse(geofenceId: string, own: Partial<GeofenceRules>, organization: Partial<GeofenceRules>): GeofenceRulesResponseDto {
  return { geofence_id: geofenceId, ...effectiveRules(organization, own), overrides: inRuleOrder(own) };
}

export function toGeofencingSettingsResponse(organizationId: string, own: Partial<GeofenceRules>): GeofencingSettingsResponseDto {
  return { organization_id: organizationId, ...effectiveRules(own), overrides: inRuleOrder(own) };
}

/** PostgreSQL's jsonb keeps no key order: answers list the fields in the contract's order. */
function inRuleOrder(own: Partial<GeofenceRules>): Partial<GeofenceRules> {
  return Object.fromEntries(RULE_NAMES.filter((name) => own[name] !== undefined && own[name] !== null).map((name) => [name, own[name]]));
}
