import {
  BadRequestException,
  ForbiddenException,
  HttpException,
  InternalServerErrorException,
  NotFoundException,
  PayloadTooLargeException,
  ServiceUnavailableException,
  UnauthorizedException,
} from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import { ErrorCode } from './error-code';
import { formatByteLimit, renderError, RenderedError } from './error-response';

const BODY_KEYS = ['code', 'errors', 'message', 'status'];

/** Renders and checks the invariant of contract section 3: one shape, whatever the source. */
function render(exception: unknown): RenderedError {
  const result = renderError(exception);
  expect(Object.keys(result.body).sort()).toEqual(BODY_KEYS);
  expect(typeof result.body.message).toBe('string');
  expect(Array.isArray(result.body.errors)).toBe(true);
  return result;
}

const pgError = (code: string, message = 'pg error') => Object.assign(new Error(message), { code });
const queryFailed = (driverError: unknown) => Object.assign(new Error('Query failed'), { name: 'QueryFailedError', driverError });

describe('renderError', () => {
  describe('ApiError', () => {
    it('is rendered unchanged, with its field errors', () => {
      const errors = [{ message: 'the ring must be closed', code: 'invalid', fields: 'geometric', value: [[1, 2]] }];
      const { body, headers, unexpected } = render(ApiError.validation('The geofence is not valid', errors));
      expect(body).toEqual({ status: 422, code: 'validation_failed', message: 'The geofence is not valid', errors });
      expect(headers).toEqual({});
      expect(unexpected).toBe(false);
    });

    it('passes its headers through (Retry-After of 429)', () => {
      const { body, headers, unexpected } = render(ApiError.tooManyRequests(2.2));
      expect(body).toEqual({ status: 429, code: 'too_many_requests', message: 'Too many requests, try again later', errors: [] });
      expect(headers).toEqual({ 'Retry-After': '3' });
      expect(unexpected).toBe(false);
    });

    it('passes custom headers through', () => {
      const error = new ApiError(409, ErrorCode.Conflict, 'stale', [], { ETag: '"v2"' });
      expect(render(error).headers).toEqual({ ETag: '"v2"' });
      expect(render(error).body).toEqual({ status: 409, code: 'conflict', message: 'stale', errors: [] });
    });

    it.each([
      [ApiError.badRequest('bad'), 400, 'bad_request'],
      [ApiError.unauthorized(), 401, 'unauthorized'],
      [ApiError.invalidCredentials(), 401, 'invalid_credentials'],
      [ApiError.forbidden(), 403, 'forbidden'],
      [ApiError.notFound('Geofence', 'abc'), 404, 'entity_not_found'],
      [ApiError.conflict('taken'), 409, 'conflict'],
      [ApiError.serviceUnavailable(), 503, 'service_unavailable'],
    ])('keeps the status and code of %s', (error, status, code) => {
      const { body } = render(error);
      expect(body.status).toBe(status);
      expect(body.code).toBe(code);
      expect(body.message).toBe(error.message);
    });

    it('keeps the entity and id in a not-found message', () => {
      expect(render(ApiError.notFound('Geofence', 'abc')).body.message).toBe('Geofence abc not found');
    });
  });

  describe('Nest HttpException', () => {
    it('turns the router 404 into route_not_found, naming the route', () => {
      const { body, headers, unexpected } = render(new NotFoundException('Cannot GET /api/v1/nowhere'));
      expect(body).toEqual({ status: 404, code: 'route_not_found', message: 'Route not found: GET /api/v1/nowhere', errors: [] });
      expect(headers).toEqual({});
      expect(unexpected).toBe(false);
    });

    it('turns a bare NotFoundException into route_not_found', () => {
      expect(render(new NotFoundException()).body).toEqual({ status: 404, code: 'route_not_found', message: 'Route not found', errors: [] });
    });

    it('renders BadRequestException as bad_request with its message', () => {
      const { body, unexpected } = render(new BadRequestException('Unexpected field'));
      expect(body).toEqual({ status: 400, code: 'bad_request', message: 'Unexpected field', errors: [] });
      expect(unexpected).toBe(false);
    });

    it('joins an array of messages', () => {
      expect(render(new BadRequestException(['first', 'second'])).body.message).toBe('first; second');
    });

    it('renders PayloadTooLargeException as payload_too_large', () => {
      const { body } = render(new PayloadTooLargeException());
      expect(body.status).toBe(413);
      expect(body.code).toBe('payload_too_large');
    });

    it('renders 401 and 403 with the contract codes', () => {
      expect(render(new UnauthorizedException()).body).toMatchObject({ status: 401, code: 'unauthorized' });
      expect(render(new ForbiddenException()).body).toMatchObject({ status: 403, code: 'forbidden' });
    });

    it('renders a 429 with a Retry-After header', () => {
      const { body, headers } = render(new HttpException('ThrottlerException: Too Many Requests', 429));
      expect(body).toEqual({ status: 429, code: 'too_many_requests', message: 'Too many requests, try again later', errors: [] });
      expect(Number(headers['Retry-After'])).toBeGreaterThan(0);
    });

    it('renders ServiceUnavailableException as service_unavailable with Retry-After', () => {
      const { body, headers, unexpected } = render(new ServiceUnavailableException('health check failed'));
      expect(body).toEqual({ status: 503, code: 'service_unavailable', message: 'The service is not ready', errors: [] });
      expect(headers).toEqual({ 'Retry-After': '5' });
      expect(unexpected).toBe(false);
    });

    it('renders a 500 HttpException as internal_error with a generic message, flagged unexpected', () => {
      const { body, headers, unexpected } = render(new HttpException('db password is hunter2', 500));
      expect(body).toEqual({ status: 500, code: 'internal_error', message: 'An unexpected error occurred', errors: [] });
      expect(body.message).not.toContain('hunter2');
      expect(headers).toEqual({});
      expect(unexpected).toBe(true);
    });

    it('does not leak the message of InternalServerErrorException', () => {
      const { body, unexpected } = render(new InternalServerErrorException('stack at /srv/app.js:12'));
      expect(body.code).toBe('internal_error');
      expect(JSON.stringify(body)).not.toContain('/srv/app.js');
      expect(unexpected).toBe(true);
    });
  });

  describe('Fastify errors', () => {
    it('renders FST_ERR_CTP_BODY_TOO_LARGE as 413 payload_too_large', () => {
      const { body, unexpected } = render({ statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE', message: 'Request body is too large' });
      expect(body).toEqual({ status: 413, code: 'payload_too_large', message: 'The request body is too large', errors: [] });
      expect(unexpected).toBe(false);
    });

    it('names the route body limit in a 413 when it is known, from Fastify or Nest', () => {
      const limit = { bodyLimit: 3 * 1024 * 1024 };
      expect(renderError({ statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' }, limit).body).toEqual({
        status: 413,
        code: 'payload_too_large',
        message: 'The request body is larger than the 3 MiB this route accepts',
        errors: [],
      });
      expect(renderError(new PayloadTooLargeException('Request body is too large'), { bodyLimit: 1024 * 1024 }).body.message).toBe(
        'The request body is larger than the 1 MiB this route accepts',
      );
      expect(formatByteLimit(512 * 1024)).toBe('512 KiB');
      expect(formatByteLimit(1000)).toBe('1000 bytes');
    });

    it('renders FST_ERR_CTP_INVALID_JSON_BODY as 400 bad_request', () => {
      const { body, unexpected } = render({ statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
      expect(body).toEqual({ status: 400, code: 'bad_request', message: 'The request body is not valid JSON', errors: [] });
      expect(unexpected).toBe(false);
    });

    it('renders Error instances carrying statusCode and code the same way', () => {
      const error = Object.assign(new Error('Request body is too large'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
      expect(render(error).body).toEqual({ status: 413, code: 'payload_too_large', message: 'The request body is too large', errors: [] });
    });

    it('renders a JSON SyntaxError with statusCode 400 as invalid JSON, without echoing the parser message', () => {
      const error = Object.assign(new SyntaxError('Unexpected token } in JSON at position 7'), { statusCode: 400 });
      const { body } = render(error);
      expect(body).toEqual({ status: 400, code: 'bad_request', message: 'The request body is not valid JSON', errors: [] });
    });

    it('renders an unsupported media type as 415', () => {
      expect(render({ statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' }).body).toEqual({
        status: 415,
        code: 'unsupported_media_type',
        message: 'Unsupported content type',
        errors: [],
      });
    });

    it('renders an unknown 4xx framework error with a generic message', () => {
      expect(render({ statusCode: 400, code: 'FST_SOMETHING_NEW', message: 'internal detail' }).body).toEqual({
        status: 400,
        code: 'bad_request',
        message: 'The request is not valid',
        errors: [],
      });
    });

    it('treats a framework error with a 5xx statusCode as unexpected', () => {
      const { body, unexpected } = render({ statusCode: 500, code: 'FST_ERR_INTERNAL', message: 'internal detail' });
      expect(body).toEqual({ status: 500, code: 'internal_error', message: 'An unexpected error occurred', errors: [] });
      expect(unexpected).toBe(true);
    });
  });

  describe('database errors', () => {
    it.each([
      ['TypeORM-wrapped pg unique violation', queryFailed({ code: '23505', detail: 'Key (email)=(a@b.c) already exists.' })],
      ['raw pg unique violation', pgError('23505')],
      ['SQLite unique violation', { code: 'SQLITE_CONSTRAINT_UNIQUE' }],
      ['TypeORM-wrapped SQLite unique violation', queryFailed({ code: 'SQLITE_CONSTRAINT_UNIQUE' })],
      ['SQLite primary key violation', { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' }],
    ])('renders a %s as 409 conflict', (_name, error) => {
      const { body, headers, unexpected } = render(error);
      expect(body).toEqual({ status: 409, code: 'conflict', message: 'A resource with the same unique value already exists', errors: [] });
      expect(JSON.stringify(body)).not.toContain('a@b.c');
      expect(headers).toEqual({});
      expect(unexpected).toBe(false);
    });

    it.each([
      ['ECONNREFUSED', { code: 'ECONNREFUSED' }],
      ['a pg connection timeout', new Error('Connection terminated due to connection timeout')],
      ['a pg pool timeout', new Error('timeout exceeded when trying to connect')],
      ['admin shutdown 57P01 wrapped by TypeORM', queryFailed({ code: '57P01' })],
      ['a pg query read timeout', new Error('Query read timeout')],
      ['SQLITE_BUSY', { code: 'SQLITE_BUSY' }],
      ['a connection exception SQLSTATE 08006', pgError('08006')],
      ['ECONNREFUSED in an AggregateError', new AggregateError([pgError('ECONNREFUSED')], 'connect failed')],
      ['ECONNREFUSED as a cause', new Error('driver failed', { cause: pgError('ECONNREFUSED') })],
    ])('renders %s as 503 service_unavailable with Retry-After', (_name, error) => {
      const { body, headers, unexpected } = render(error);
      expect(body).toEqual({ status: 503, code: 'service_unavailable', message: 'The database cannot be reached', errors: [] });
      expect(headers).toEqual({ 'Retry-After': '5' });
      expect(unexpected).toBe(false);
    });

    it('does not share the header object between renders', () => {
      const first = render({ code: 'ECONNREFUSED' });
      first.headers['Retry-After'] = '999';
      expect(render({ code: 'ECONNREFUSED' }).headers).toEqual({ 'Retry-After': '5' });
    });
  });

  describe('anything else', () => {
    it('renders a plain Error as 500 internal_error without its message', () => {
      const { body, headers, unexpected } = render(new Error('secret internals'));
      expect(body).toEqual({ status: 500, code: 'internal_error', message: 'An unexpected error occurred', errors: [] });
      expect(body.message).not.toContain('secret internals');
      expect(JSON.stringify(body)).not.toContain('secret internals');
      expect(headers).toEqual({});
      expect(unexpected).toBe(true);
    });

    it('does not put a stack trace in the body', () => {
      const error = new TypeError('Cannot read properties of undefined (reading "x")');
      const serialized = JSON.stringify(render(error).body);
      expect(serialized).not.toContain('TypeError');
      expect(serialized).not.toContain('    at ');
    });

    it.each([null, undefined, 'a string', 42, { some: 'object' }, { statusCode: '400', code: 'FST_ERR_CTP_INVALID_JSON_BODY' }])(
      'renders the thrown value %j as 500 internal_error',
      (value) => {
        const { body, unexpected } = render(value);
        expect(body).toEqual({ status: 500, code: 'internal_error', message: 'An unexpected error occurred', errors: [] });
        expect(unexpected).toBe(true);
      },
    );
  });
});
