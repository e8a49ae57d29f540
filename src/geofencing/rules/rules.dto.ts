import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DEFAULT_RULES, ENTER_WHEN, EXIT_WHEN } from '../engine/rules';

/** The body of PUT/PATCH rules and settings: any subset of the fields; null returns a field to its inherited value. */
export class GeofenceRulesPatchDto {
  @ApiPropertyOptional({ nullable: true, default: DEFAULT_RULES.enabled, description: 'false: the fence fires no events' }) enabled?: boolean | null;
  @ApiPropertyOptional({ nullable: true, enum: ENTER_WHEN, default: DEFAULT_RULES.enter_when, description: 'center: d ≤ 0; contains: d ≤ −r; intersects: d < r' })
  enter_when?: string | null;
  @ApiPropertyOptional({
    nullable: true,
    enum: EXIT_WHEN,
    default: DEFAULT_RULES.exit_when,
    description: 'center_out: d ≥ buffer_m; not_intersects: d ≥ r + buffer_m; not_contains: d > −r',
  })
  exit_when?: string | null;
  @ApiPropertyOptional({ nullable: true, minimum: 0, maximum: 10, default: DEFAULT_RULES.accuracy_factor, description: 'r = max(0.5, accuracy_factor × accuracy)' })
  accuracy_factor?: number | null;
  @ApiPropertyOptional({ nullable: true, minimum: 0.5, maximum: 1000, default: DEFAULT_RULES.max_accuracy_m, description: 'Less accurate fixes never change a state' })
  max_accuracy_m?: number | null;
  @ApiPropertyOptional({ nullable: true, minimum: 0, maximum: 100, default: DEFAULT_RULES.buffer_m, description: 'Hysteresis past the edge, metres' })
  buffer_m?: number | null;
  @ApiPropertyOptional({ nullable: true, type: 'integer', minimum: 0, maximum: 3600, default: DEFAULT_RULES.min_dwell_seconds }) min_dwell_seconds?: number | null;
  @ApiPropertyOptional({ nullable: true, type: 'integer', minimum: 0, maximum: 3600, default: DEFAULT_RULES.exit_grace_seconds }) exit_grace_seconds?: number | null;
  @ApiPropertyOptional({ nullable: true, type: 'integer', minimum: 0, maximum: 604800, default: DEFAULT_RULES.dwell_seconds, description: '0: no dwell events' })
  dwell_seconds?: number | null;
  @ApiPropertyOptional({ nullable: true, type: 'integer', minimum: 0, maximum: 86400, default: DEFAULT_RULES.cooldown_seconds }) cooldown_seconds?: number | null;
  @ApiPropertyOptional({ nullable: true, type: 'integer', minimum: 1, maximum: 604800, default: DEFAULT_RULES.stale_after_seconds }) stale_after_seconds?: number | null;
  @ApiPropertyOptional({ nullable: true, default: DEFAULT_RULES.initial_trigger }) initial_trigger?: boolean | null;
}

export class EffectiveRulesDto {
  @ApiProperty() enabled: boolean;
  @ApiProperty({ enum: ENTER_WHEN }) enter_when: string;
  @ApiProperty({ enum: EXIT_WHEN }) exit_when: string;
  @ApiProperty() accuracy_factor: number;
  @ApiProperty() max_accuracy_m: number;
  @ApiProperty() buffer_m: number;
  @ApiProperty() min_dwell_seconds: number;
  @ApiProperty() exit_grace_seconds: number;
  @ApiProperty() dwell_seconds: number;
  @ApiProperty() cooldown_seconds: number;
  @ApiProperty() stale_after_seconds: number;
  @ApiProperty() initial_trigger: boolean;
}

export class GeofenceRulesResponseDto extends EffectiveRulesDto {
  @ApiProperty({ format: 'uuid' }) geofence_id: string;
  @ApiProperty({ type: GeofenceRulesPatchDto, description: "The fields the fence sets itself; every other field is the organization's setting" })
  overrides: Record<string, unknown>;
}

export class GeofencingSettingsResponseDto extends EffectiveRulesDto {
  @ApiProperty({ format: 'uuid' }) organization_id: string;
  @ApiProperty({ type: GeofenceRulesPatchDto, description: "The fields the organization sets; every other field is the contract's default" })
  overrides: Record<string, unknown>;
}
