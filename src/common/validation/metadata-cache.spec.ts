import 'reflect-metadata';
import { IsInt, IsString, MetadataStorage, Min, MinLength, validateSync, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { describe, expect, it } from 'vitest';
import { cacheValidationMetadata } from './metadata-cache';

class Base {
  @IsInt()
  @Min(1)
  floor_id: number;
}

class Child extends Base {
  @IsString()
  @MinLength(2)
  name: string;
}

/** A rule as the decorators register it (the fields the lookup reads: no groups, no `always`). */
const rule = (target: abstract new (...args: never[]) => unknown, propertyName: string, type: string): ValidationMetadata =>
  ({ type, target, propertyName, constraints: [], groups: [], each: false, always: undefined, context: undefined }) as unknown as ValidationMetadata;

/** A storage of its own with the rules of Base and Child. */
function storageWith(...rules: Array<[abstract new (...args: never[]) => unknown, string, string]>): MetadataStorage {
  const storage = new MetadataStorage();
  for (const [target, propertyName, type] of rules) {
    storage.addValidationMetadata(rule(target, propertyName, type));
  }
  return storage;
}

describe('cacheValidationMetadata', () => {
  it('answers what the uncached lookup answers, for own and inherited rules and for every option', () => {
    const plain = storageWith([Base, 'floor_id', ValidationTypes.IS_DEFINED], [Child, 'name', ValidationTypes.IS_DEFINED], [Child, 'name', ValidationTypes.WHITELIST]);
    const cached = storageWith([Base, 'floor_id', ValidationTypes.IS_DEFINED], [Child, 'name', ValidationTypes.IS_DEFINED], [Child, 'name', ValidationTypes.WHITELIST]);
    cacheValidationMetadata(cached);
    const describeAll = (metadata: ValidationMetadata[]) => metadata.map((m) => `${(m.target as { name: string }).name}.${m.propertyName}:${m.type}`).sort();
    for (const target of [Base, Child]) {
      for (const [always, strictGroups, groups] of [
        [false, false, undefined],
        [true, false, undefined],
        [false, true, []],
        [false, false, ['a']],
      ] as Array<[boolean, boolean, string[] | undefined]>) {
        const expected = describeAll(plain.getTargetValidationMetadatas(target, '', always, strictGroups, groups));
        expect(describeAll(cached.getTargetValidationMetadatas(target, '', always, strictGroups, groups))).toEqual(expected);
        // The second call is the cached one.
        expect(describeAll(cached.getTargetValidationMetadatas(target, '', always, strictGroups, groups))).toEqual(expected);
      }
    }
    expect(describeAll(cached.getTargetValidationMetadatas(Child, '', false, false, undefined))).toEqual([
      'Base.floor_id:isDefined',
      'Child.name:isDefined',
      'Child.name:whitelistValidation',
    ]);
    // Kept: the same answer, not a new scan (the library answers a new array each time).
    expect(cached.getTargetValidationMetadatas(Child, '', false, false, undefined)).toBe(cached.getTargetValidationMetadatas(Child, '', false, false, undefined));
    expect(plain.getTargetValidationMetadatas(Child, '', false, false, undefined)).not.toBe(plain.getTargetValidationMetadatas(Child, '', false, false, undefined));
    // Grouping by property stays the library's.
    const metadata = cached.getTargetValidationMetadatas(Child, '', false, false, undefined);
    expect(Object.keys(cached.groupByPropertyName(metadata)).sort()).toEqual(['floor_id', 'name']);
    expect(cached.groupByPropertyName(metadata)).toBe(cached.groupByPropertyName(metadata));
  });

  it('forgets what it kept when a rule is added later, and installs once', () => {
    const storage = storageWith([Base, 'floor_id', ValidationTypes.IS_DEFINED]);
    cacheValidationMetadata(storage);
    cacheValidationMetadata(storage);
    expect(storage.getTargetValidationMetadatas(Child, '', false, false, undefined).map((m) => m.propertyName)).toEqual(['floor_id']);
    storage.addValidationMetadata(rule(Child, 'name', ValidationTypes.IS_DEFINED));
    expect(
      storage
        .getTargetValidationMetadatas(Child, '', false, false, undefined)
        .map((m) => m.propertyName)
        .sort(),
    ).toEqual(['floor_id', 'name']);
  });

  it('validates as before on the process storage, inherited rules included', () => {
    cacheValidationMetadata();
    const child = Object.assign(new Child(), { floor_id: 0, name: 'x' });
    const errors = validateSync(child);
    expect(errors.map((error) => error.property).sort()).toEqual(['floor_id', 'name']);
    expect(validateSync(Object.assign(new Child(), { floor_id: 2, name: 'ok' }))).toEqual([]);
  });
});
