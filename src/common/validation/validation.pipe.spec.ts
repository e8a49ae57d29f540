import 'reflect-metadata';
import { ArgumentMetadata } from '@nestjs/common';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, Min, MinLength, ValidateNested } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error';
import { ApiValidationPipe } from './validation.pipe';

class AddressDto {
  @IsString()
  @IsNotEmpty()
  city: string;
}

class CreateThingDto {
  @IsString()
  @IsNotEmpty()
  name: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  floor_id?: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => AddressDto)
  address?: AddressDto;
}

class CredentialsDto {
  @IsString()
  @MinLength(12)
  password: string;

  @IsOptional()
  @IsString()
  @MinLength(12)
  new_password?: string;

  @IsOptional()
  @IsString()
  refresh_token?: string;

  @IsOptional()
  @IsString()
  apikey?: string;

  @IsOptional()
  @IsString()
  client_secret?: string;

  @IsString()
  @IsNotEmpty()
  email: string;
}

class MemberDto {
  @IsString()
  email: string;

  @IsString()
  password: string;
}

class BulkMembersDto {
  @ArrayMaxSize(1)
  @ValidateNested({ each: true })
  @Type(() => MemberDto)
  members: MemberDto[];
}

class SearchQueryDto {
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  size?: number;
}

const body = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'body', metatype, data: '' });
const query = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'query', metatype, data: '' });

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the pipe to reject');
    },
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('ApiValidationPipe', () => {
  const pipe = new ApiValidationPipe();

  describe('bodies', () => {
    it('returns a valid body as an instance of the DTO', async () => {
      const result = await pipe.transform({ name: 'Hall', floor_id: 3 }, body(CreateThingDto));
      expect(result).toBeInstanceOf(CreateThingDto);
      expect({ ...(result as object) }).toEqual({ name: 'Hall', floor_id: 3 });
    });

    it('strips unknown keys, at the top level and in nested objects', async () => {
      const result = await pipe.transform({ name: 'Hall', id: 99, created_at: '2000-01-01', legacy: { x: 1 }, address: { city: 'Santiago', zip: '15701' } }, body(CreateThingDto));
      // Declared-but-absent fields may exist as undefined (class field semantics); unknown keys must not exist at all.
      for (const key of ['id', 'created_at', 'legacy']) expect(Object.hasOwn(result as object, key)).toBe(false);
      expect(Object.hasOwn((result as CreateThingDto).address as object, 'zip')).toBe(false);
      expect(JSON.parse(JSON.stringify(result))).toEqual({ name: 'Hall', address: { city: 'Santiago' } });
    });

    it('refuses a bad body with 422 validation_failed naming the field', async () => {
      const error = await rejection(pipe.transform({ name: '', floor_id: 2 }, body(CreateThingDto)));
      expect(error.status).toBe(422);
      expect(error.code).toBe('validation_failed');
      expect(error.errors.length).toBeGreaterThan(0);
      expect(new Set(error.errors.map((e) => e.fields))).toEqual(new Set(['name']));
      for (const fieldError of error.errors) {
        expect(fieldError.code).toBe('invalid');
        expect(typeof fieldError.message).toBe('string');
        expect(fieldError.value).toBe('');
      }
      expect(error.toBody()).toMatchObject({ status: 422, code: 'validation_failed' });
    });

    it('names every invalid field, and echoes a non-secret value', async () => {
      const error = await rejection(pipe.transform({ name: 42, floor_id: -1 }, body(CreateThingDto)));
      expect(new Set(error.errors.map((e) => e.fields))).toEqual(new Set(['name', 'floor_id']));
      expect(error.errors.find((e) => e.fields === 'floor_id')?.value).toBe(-1);
      expect(error.errors.find((e) => e.fields === 'name')?.value).toBe(42);
    });

    it('names a nested field with a dotted path', async () => {
      const error = await rejection(pipe.transform({ name: 'Hall', address: { city: '' } }, body(CreateThingDto)));
      expect(error.status).toBe(422);
      expect(new Set(error.errors.map((e) => e.fields))).toEqual(new Set(['address.city']));
    });

    it('refuses a missing required field', async () => {
      const error = await rejection(pipe.transform({}, body(CreateThingDto)));
      expect(error.status).toBe(422);
      expect(error.errors.map((e) => e.fields)).toContain('name');
    });

    it('says a missing field is required, once, rather than listing the checks it would fail', async () => {
      const error = await rejection(pipe.transform({ floor_id: 2 }, body(CreateThingDto)));
      expect(error.errors).toEqual([{ message: 'name is required', code: 'required', fields: 'name' }]);
    });

    it.each([
      ['an array', [{ name: 'Hall' }]],
      ['a string', 'name=Hall'],
      ['a number', 42],
      ['null', null],
      ['undefined (no body)', undefined],
    ])('refuses %s as a DTO body with 422', async (_name, value) => {
      const error = await rejection(pipe.transform(value, body(CreateThingDto)));
      expect(error.status).toBe(422);
      expect(error.code).toBe('validation_failed');
      expect(error.errors).toEqual([{ message: 'the body must be a JSON object', code: 'invalid', fields: 'body' }]);
    });

    it('does not validate a body without a DTO class', async () => {
      expect(await pipe.transform('raw text', body(undefined))).toBe('raw text');
      expect(await pipe.transform([1, 2], body(Object))).toEqual([1, 2]);
    });
  });

  describe('secrets', () => {
    const SECRETS = {
      password: 'hunter2',
      new_password: 'tiny-pw',
      refresh_token: 1234567,
      apikey: 7654321,
      client_secret: 98765,
    };

    it('names password-like fields but never echoes their value', async () => {
      const error = await rejection(pipe.transform({ ...SECRETS, email: '' }, body(CredentialsDto)));
      expect(error.status).toBe(422);
      const fields = new Set(error.errors.map((e) => e.fields));
      expect(fields).toEqual(new Set(['password', 'new_password', 'refresh_token', 'apikey', 'client_secret', 'email']));
      for (const fieldError of error.errors.filter((e) => e.fields !== 'email')) {
        expect(fieldError).not.toHaveProperty('value');
      }
      // A non-secret field still echoes its value.
      expect(error.errors.find((e) => e.fields === 'email')?.value).toBe('');
      const serialized = JSON.stringify(error.toBody());
      for (const secret of Object.values(SECRETS)) expect(serialized).not.toContain(String(secret));
    });

    it('does not echo a secret nested in an invalid password-like field', async () => {
      const error = await rejection(pipe.transform({ members: [{ email: 'a@b.co', password: 42 }] }, body(BulkMembersDto)));
      expect(error.errors.map((e) => e.fields)).toEqual(['members[0].password']);
      expect(error.errors[0]).not.toHaveProperty('value');
    });

    it('does not echo secrets nested inside the value of an invalid parent field', async () => {
      const members = [
        { email: 'a@b.co', password: 'TOPSECRET-ONE' },
        { email: 'c@d.co', password: 'TOPSECRET-TWO' },
      ];
      const error = await rejection(pipe.transform({ members }, body(BulkMembersDto)));
      expect(error.errors.map((e) => e.fields)).toEqual(['members']);
      expect(JSON.stringify(error.toBody())).not.toContain('TOPSECRET');
    });
  });

  describe('query parameters', () => {
    it('transforms a valid query', async () => {
      const result = await pipe.transform({ order: 'asc', size: '20' }, query(SearchQueryDto));
      expect(result).toBeInstanceOf(SearchQueryDto);
      expect({ ...(result as object) }).toEqual({ order: 'asc', size: 20 });
    });

    it('refuses a bad query with 400 bad_request, naming the parameter', async () => {
      const error = await rejection(pipe.transform({ order: 'sideways' }, query(SearchQueryDto)));
      expect(error.status).toBe(400);
      expect(error.code).toBe('bad_request');
      expect(error.message).toBe('Invalid query parameter');
      expect(error.errors.map((e) => e.fields)).toEqual(['order']);
      expect(error.errors[0].value).toBe('sideways');
    });

    it('refuses an out-of-range number with 400', async () => {
      const error = await rejection(pipe.transform({ size: '5000' }, query(SearchQueryDto)));
      expect(error.status).toBe(400);
      expect(error.errors.map((e) => e.fields)).toEqual(['size']);
    });

    it('strips unknown query parameters', async () => {
      const result = await pipe.transform({ order: 'desc', utm_source: 'x' }, query(SearchQueryDto));
      expect({ ...(result as object) }).toEqual({ order: 'desc' });
    });

    it('refuses a bad path parameter DTO with 400', async () => {
      const error = await rejection(pipe.transform({ order: 'up' }, { type: 'param', metatype: SearchQueryDto, data: '' }));
      expect(error.status).toBe(400);
      expect(error.code).toBe('bad_request');
      expect(error.message).toBe('Invalid path parameter');
    });
  });
});
