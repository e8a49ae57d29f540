import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES, effectiveRules, overridesAfter, pickRulePatch, RULE_NAMES, validateRulePatch } from './rules';

describe('geofence rules (contract 7.2)', () => {
  it('has the contract defaults, every one of which passes validation', () => {
    expect(DEFAULT_RULES).toEqual({
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
    expect(validateRulePatch({ ...DEFAULT_RULES })).toEqual([]);
    expect(RULE_NAMES).toHaveLength(12);
  });

  it.each([
    ['enabled', 'yes'],
    ['enter_when', 'inside'],
    ['exit_when', 'center'],
    ['accuracy_factor', -0.1],
    ['accuracy_factor', 10.5],
    ['max_accuracy_m', 0],
    ['max_accuracy_m', 1001],
    ['buffer_m', -1],
    ['buffer_m', '1'],
    ['min_dwell_seconds', 1.5],
    ['min_dwell_seconds', 3601],
    ['exit_grace_seconds', -1],
    ['dwell_seconds', 604801],
    ['cooldown_seconds', 86401],
    ['stale_after_seconds', 0],
    ['initial_trigger', 1],
    ['max_accuracy_m', Number.NaN],
  ])('names %s when it is %j', (field, value) => {
    expect(validateRulePatch({ [field]: value })).toEqual([expect.objectContaining({ field })]);
  });

  it('leaves keys that are not rules to the caller', () => {
    expect(validateRulePatch({ no_such_rule: 'x', dwell_seconds: 5 })).toEqual([]);
    expect(pickRulePatch({ no_such_rule: 'x', dwell_seconds: 5, buffer_m: null })).toEqual({ dwell_seconds: 5, buffer_m: null });
  });

  it('accepts the ends of each range and null (inherit)', () => {
    expect(validateRulePatch({ accuracy_factor: 0, max_accuracy_m: 1000, buffer_m: 100, min_dwell_seconds: 0, dwell_seconds: 604800, stale_after_seconds: 1 })).toEqual([]);
    expect(validateRulePatch({ dwell_seconds: null, enter_when: null })).toEqual([]);
  });

  it('layers overrides over the defaults, the fence over its organization; null removes an override', () => {
    const organization = { dwell_seconds: 60, buffer_m: 2 };
    const fence = overridesAfter({ dwell_seconds: 30 }, { min_dwell_seconds: 0, dwell_seconds: null });
    expect(fence).toEqual({ min_dwell_seconds: 0 });
    expect(effectiveRules(organization, fence)).toEqual({ ...DEFAULT_RULES, dwell_seconds: 60, buffer_m: 2, min_dwell_seconds: 0 });
    expect(effectiveRules(null, undefined)).toEqual(DEFAULT_RULES);
  });
});
