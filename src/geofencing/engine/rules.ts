/**
 * The geofence rules of contract 7.2: their defaults, their ranges, and validation that
 * names the offending field. Plain data, shared by the routes and the engine.
 */
export const ENTER_WHEN = ['center', 'contains', 'intersects'] as const;
export const EXIT_WHEN = ['center_out', 'not_intersects', 'not_contains'] as const;

export type EnterWhen = (typeof ENTER_WHEN)[number];
export type ExitWhen = (typeof EXIT_WHEN)[number];

export interface GeofenceRules {
  enabled: boolean;
  enter_when: EnterWhen;
  exit_when: ExitWhen;
  /** Multiplies a fix's accuracy into the radius r of 7.1. */
  accuracy_factor: number;
  /** Fixes less accurate than this are kept but never change a state. */
  max_accuracy_m: number;
  /** Hysteresis: how far past the edge a fix must be before it counts as out. */
  buffer_m: number;
  min_dwell_seconds: number;
  exit_grace_seconds: number;
  /** 0: no dwell events. */
  dwell_seconds: number;
  cooldown_seconds: number;
  stale_after_seconds: number;
  initial_trigger: boolean;
}

export type RuleName = keyof GeofenceRules;

/** Contract 7.2's defaults, used where neither the fence nor its organization says otherwise. */
export const DEFAULT_RULES: Readonly<GeofenceRules> = Object.freeze({
  enabled: true,
  enter_when: 'center',
  exit_when: 'center_out',
  accuracy_factor: 1.0,
  max_accuracy_m: 20,
  buffer_m: 1.0,
  min_dwell_seconds: 3,
  exit_grace_seconds: 10,
  dwell_seconds: 300,
  cooldown_seconds: 0,
  stale_after_seconds: 120,
  initial_trigger: false,
});

type RuleSpec = { kind: 'boolean' } | { kind: 'enum'; values: readonly string[] } | { kind: 'number'; min: number; max: number; integer: boolean; description: string };

const DAY = 86_400;

/** Every rule's type and range. The ranges keep deadlines within a week and radii within a building. */
export const RULE_SPECS: Record<RuleName, RuleSpec> = {
  enabled: { kind: 'boolean' },
  enter_when: { kind: 'enum', values: ENTER_WHEN },
  exit_when: { kind: 'enum', values: EXIT_WHEN },
  accuracy_factor: { kind: 'number', min: 0, max: 10, integer: false, description: 'a number from 0 to 10' },
  max_accuracy_m: { kind: 'number', min: 0.5, max: 1000, integer: false, description: 'a number of metres from 0.5 to 1000' },
  buffer_m: { kind: 'number', min: 0, max: 100, integer: false, description: 'a number of metres from 0 to 100' },
  min_dwell_seconds: { kind: 'number', min: 0, max: 3600, integer: true, description: 'a whole number of seconds from 0 to 3600' },
  exit_grace_seconds: { kind: 'number', min: 0, max: 3600, integer: true, description: 'a whole number of seconds from 0 to 3600' },
  dwell_seconds: { kind: 'number', min: 0, max: 7 * DAY, integer: true, description: 'a whole number of seconds from 0 (no dwell events) to 604800' },
  cooldown_seconds: { kind: 'number', min: 0, max: DAY, integer: true, description: 'a whole number of seconds from 0 to 86400' },
  stale_after_seconds: { kind: 'number', min: 1, max: 7 * DAY, integer: true, description: 'a whole number of seconds from 1 to 604800' },
  initial_trigger: { kind: 'boolean' },
};

export const RULE_NAMES = Object.keys(RULE_SPECS) as RuleName[];

export interface RuleError {
  field: string;
  message: string;
  value?: unknown;
}

/**
 * Checks a partial rule set as sent by a client. `null` is accepted for every field and
 * means "inherit" (the caller decides from where). Other keys are left alone, as every
 * body of the API drops unknown keys.
 */
export function validateRulePatch(body: Record<string, unknown>): RuleError[] {
  const errors: RuleError[] = [];
  for (const field of RULE_NAMES) {
    const spec = RULE_SPECS[field];
    const value = body[field];
    if (value === null || value === undefined) continue;
    if (spec.kind === 'boolean' && typeof value !== 'boolean') errors.push({ field, message: 'must be true or false', value });
    if (spec.kind === 'enum' && (typeof value !== 'string' || !spec.values.includes(value))) {
      errors.push({ field, message: `must be one of ${spec.values.join(', ')}`, value });
    }
    if (spec.kind === 'number') {
      const valid = typeof value === 'number' && Number.isFinite(value) && value >= spec.min && value <= spec.max && (!spec.integer || Number.isInteger(value));
      if (!valid) errors.push({ field, message: `must be ${spec.description}`, value });
    }
  }
  return errors;
}

export type RulePatch = { [K in RuleName]?: GeofenceRules[K] | null };

/** The rule fields of a validated body, nothing else. */
export function pickRulePatch(body: Record<string, unknown>): RulePatch {
  const patch: Record<string, unknown> = {};
  for (const field of RULE_NAMES) if (body[field] !== undefined) patch[field] = body[field];
  return patch as RulePatch;
}

/** Keeps only the fields a patch sets (not null); what a stored override holds. */
export function overridesAfter(current: Partial<GeofenceRules>, patch: RulePatch): Partial<GeofenceRules> {
  const next: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete next[field];
    else if (value !== undefined) next[field] = value;
  }
  return next as Partial<GeofenceRules>;
}

/** Layers of overrides over the defaults, the last one winning: organization settings, then the fence's own rules. */
export function effectiveRules(...layers: Array<Partial<GeofenceRules> | null | undefined>): GeofenceRules {
  const rules: Record<string, unknown> = { ...DEFAULT_RULES };
  for (const layer of layers) {
    if (!layer) continue;
    for (const name of RULE_NAMES) if (layer[name] !== undefined && layer[name] !== null) rules[name] = layer[name];
  }
  return rules as unknown as GeofenceRules;
}
