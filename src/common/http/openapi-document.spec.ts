import type { OpenAPIObject } from '@nestjs/swagger';
import { describe, expect, it } from 'vitest';
import { completeOpenApiDocument } from './openapi-document';

const ERROR = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponseDto' } } };

function documentWith(paths: Record<string, unknown>): OpenAPIObject {
  return { openapi: '3.0.0', info: { title: 't', version: '1.50.1' }, paths, components: {} } as unknown as OpenAPIObject;
}

describe('completeOpenApiDocument', () => {
  it("sets info.version to the server's version", () => {
    expect(completeOpenApiDocument(documentWith({}), '0.1.0').info.version).toBe('0.1.0');
  });

  it('declares each header once: the documented If-Match wins over the generated required if-match', () => {
    const document = completeOpenApiDocument(
      documentWith({
        '/things/{id}': {
          put: {
            parameters: [
              { in: 'path', name: 'id', required: true },
              { in: 'header', name: 'if-match', required: true },
              { in: 'header', name: 'accept', required: true },
              { in: 'header', name: 'If-Match', required: false, description: 'ETag' },
            ],
            responses: { '200': { description: '' } },
          },
        },
      }),
      '1',
    );
    const parameters = (document.paths['/things/{id}'].put as { parameters: unknown[] }).parameters;
    expect(parameters).toEqual([
      { in: 'path', name: 'id', required: true },
      { in: 'header', name: 'If-Match', required: false, description: 'ETag' },
    ]);
  });

  it('names an undocumented conditional header canonically and makes it optional', () => {
    const document = completeOpenApiDocument(
      documentWith({
        '/images/{id}': {
          get: {
            parameters: [
              { in: 'path', name: 'id' },
              { in: 'header', name: 'if-none-match', required: true },
            ],
            responses: { '200': {} },
          },
        },
      }),
      '1',
    );
    expect((document.paths['/images/{id}'].get as { parameters: unknown[] }).parameters[1]).toEqual({ in: 'header', name: 'If-None-Match', required: false });
  });

  it('adds the PATCH twin of a PUT, and the errors each operation can answer, with descriptions', () => {
    const document = completeOpenApiDocument(
      documentWith({
        '/things/{id}': {
          put: {
            operationId: 'update',
            parameters: [
              { in: 'path', name: 'id' },
              { in: 'header', name: 'If-Match', description: 'ETag' },
            ],
            requestBody: {},
            responses: { '200': { description: '' } },
          },
        },
        '/things': { get: { responses: { '200': {} } } },
      }),
      '1',
    );
    const item = document.paths['/things/{id}'] as Record<string, { operationId?: string; responses: Record<string, { description: string; content?: unknown }> }>;
    expect(item.patch.operationId).toBe('update_patch');
    for (const operation of [item.put, item.patch]) {
      expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '404', '409', '422']);
      expect(operation.responses['200'].description).toBe('OK');
      for (const status of ['400', '404', '409', '422']) expect(operation.responses[status]).toEqual({ description: expect.any(String), content: ERROR });
    }
    // Nothing to be malformed or missing: no 400, 404 or 422.
    expect(Object.keys((document.paths['/things'].get as { responses: object }).responses)).toEqual(['200']);
  });

  it('leaves a route that exists only to answer 405 alone', () => {
    const document = completeOpenApiDocument(documentWith({ '/paths': { post: { responses: { '405': { description: 'Use PUT' } } } } }), '1');
    expect(Object.keys((document.paths['/paths'].post as { responses: object }).responses)).toEqual(['405']);
  });
});
