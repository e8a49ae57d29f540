import { describe, expect, it } from 'vitest';
import { ApiError } from '../../common/errors/api-error';
import { assertCallerOrganization } from '../../access/caller-organization';
import { aliased, idList, organizationIdOf, singleValue, uuidList } from './visit-query';

const ORG = '0b7c3f0e-4a57-4f7e-9d1e-2f1c8a9b6d10';
const OTHER = '5f0d9c3e-1b2a-4c3d-8e9f-0a1b2c3d4e5f';

function failure(run: () => unknown): { status: number; code: string; fields?: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, code: error.code, fields: error.errors[0]?.fields };
    throw error;
  }
  throw new Error('expected a failure');
}

describe('analytics query parameters', () => {
  it('reads ids in every list form, once each', () => {
    expect(idList({ building_ids: ['1', '2'] }, 'building_ids')).toEqual([1, 2]);
    expect(idList({ building_ids: '1,2, 3,2' }, 'building_ids')).toEqual([1, 2, 3]);
    expect(idList({}, 'building_ids')).toEqual([]);
    expect(uuidList({ geofence_ids: OTHER.toUpperCase() }, 'geofence_ids')).toEqual([OTHER]);
  });

  it('refuses bad, missing or too many ids with 400 naming the parameter', () => {
    expect(failure(() => idList({ building_ids: '1,x' }, 'building_ids'))).toEqual({ status: 400, code: 'bad_request', fields: 'building_ids' });
    expect(failure(() => idList({ building_ids: '0' }, 'building_ids'))).toMatchObject({ fields: 'building_ids' });
    expect(failure(() => idList({}, 'building_ids', true))).toMatchObject({ status: 400, fields: 'building_ids' });
    expect(failure(() => uuidList({ geofence_ids: 'abc' }, 'geofence_ids'))).toMatchObject({ fields: 'geofence_ids' });
    const many = Array.from({ length: 1001 }, (_, i) => String(i + 1)).join(',');
    expect(failure(() => idList({ building_ids: many }, 'building_ids'))).toMatchObject({ fields: 'building_ids' });
  });

  it('takes a scalar once, under the first spelling given', () => {
    expect(singleValue({ from: 'x' }, 'from')).toBe('x');
    expect(failure(() => singleValue({ from: ['a', 'b'] }, 'from'))).toMatchObject({ status: 400, fields: 'from' });
    expect(aliased({ from_date: '2020-12-01' }, 'from', 'from_date')).toEqual({ name: 'from_date', value: '2020-12-01' });
    expect(aliased({}, 'from', 'from_date')).toEqual({ name: 'from', value: undefined });
  });

  it("accepts the caller's organization in either spelling, 404 for another, 400 for a malformed one", () => {
    const caller = { organizationId: ORG };
    const check = (raw: Record<string, unknown>) => assertCallerOrganization(caller, organizationIdOf(raw));
    expect(() => check({ organizationId: ORG.toUpperCase() })).not.toThrow();
    expect(() => check({ organization_id: ORG })).not.toThrow();
    expect(() => check({})).not.toThrow();
    expect(failure(() => check({ organizationId: OTHER }))).toMatchObject({ status: 404, code: 'entity_not_found' });
    expect(failure(() => check({ organizationId: 'x' }))).toMatchObject({ status: 400, fields: 'organizationId' });
  });
});
