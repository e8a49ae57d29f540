import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * Finishes the generated OpenAPI document where decorators cannot reach, in one pass over
 * every operation, so no route can forget it:
 * - every PUT has its PATCH twin (the server registers one for each PUT: contract section 1);
 * - every operation documents the errors it can answer (400 malformed input, 404 unknown id,
 *   409 stale If-Match, 422 invalid body), each with the one error shape;
 * - no response has an empty description;
 * - header parameters are declared once, under their canonical name: `@Headers('if-match')`
 *   makes @nestjs/swagger add a required lowercase `if-match` (Swagger UI then refuses to send
 *   the request); conditional headers are optional, and Accept, Content-Type and Authorization
 *   are not parameters at all in OpenAPI (its specification says to ignore them);
 * - `info.version` is the server's version.
 */

type Parameter = { in: string; name: string; required?: boolean; description?: string };

type Operation = {
  operationId?: string;
  summary?: string;
  parameters?: Parameter[];
  requestBody?: unknown;
  security?: unknown[];
  responses: Record<string, { description?: string; content?: Record<string, unknown> }>;
};

const ERROR_SCHEMA = { $ref: '#/components/schemas/ErrorResponseDto' };

export const RESPONSE_DESCRIPTIONS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '204': 'Done; no body',
  '400': 'Malformed JSON, or a malformed path or query parameter (bad_request)',
  '401': 'Missing, invalid, expired or revoked credentials',
  '403': 'The credentials do not permit this operation',
  '404': 'No such resource in your organization (entity_not_found)',
  '405': 'Method not allowed on this route; see the Allow header',
  '409': 'Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way',
  '413': 'The body or upload is larger than the limit',
  '422': 'A field is invalid; errors[] names each one (validation_failed)',
  '429': 'Too many requests; see Retry-After',
  '503': 'The database cannot be reached; see Retry-After',
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

const NOT_PARAMETERS = new Set(['accept', 'content-type', 'authorization']);
const CONDITIONAL_HEADERS: Record<string, string> = {
  'if-match': 'If-Match',
  'if-none-match': 'If-None-Match',
};

/** One declaration per header, the documented one first; conditional headers optional and canonically named. */
function normalizeHeaders(parameters: Parameter[]): Parameter[] {
  const kept: Parameter[] = [];
  const seen = new Map<string, Parameter>();
  const ranked = [...parameters].sort((a, b) => Number(b.in === 'header' && !!b.description) - Number(a.in === 'header' && !!a.description));
  for (const parameter of ranked) {
    if (parameter.in !== 'header') continue;
    const key = parameter.name.toLowerCase();
    if (NOT_PARAMETERS.has(key) || seen.has(key)) continue;
    const canonical = CONDITIONAL_HEADERS[key];
    seen.set(key, canonical ? { ...parameter, name: canonical, required: false } : parameter);
  }
  for (const parameter of parameters) {
    if (parameter.in !== 'header') kept.push(parameter);
    else {
      const chosen = seen.get(parameter.name.toLowerCase());
      if (chosen) {
        kept.push(chosen);
        seen.delete(parameter.name.toLowerCase());
      }
    }
  }
  return kept;
}

function addError(operation: Operation, status: string): void {
  operation.responses[status] ??= { description: RESPONSE_DESCRIPTIONS[status], content: { 'application/json': { schema: ERROR_SCHEMA } } };
}

function completeOperation(operation: Operation): void {
  if (operation.parameters) operation.parameters = normalizeHeaders(operation.parameters);
  const onlyRefuses = Object.keys(operation.responses).includes('405') && !Object.keys(operation.responses).some((status) => status.startsWith('2'));
  if (!onlyRefuses) {
    const parameters = operation.parameters ?? [];
    const hasPathParameter = parameters.some((parameter) => parameter.in === 'path');
    const hasInput = parameters.some((parameter) => parameter.in === 'path' || parameter.in === 'query') || operation.requestBody !== undefined;
    if (hasInput) addError(operation, '400');
    if (hasPathParameter) addError(operation, '404');
    if (parameters.some((parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'if-match')) addError(operation, '409');
    if (operation.requestBody !== undefined) addError(operation, '422');
  }
  for (const [status, response] of Object.entries(operation.responses)) {
    if (!response.description?.trim()) response.description = RESPONSE_DESCRIPTIONS[status] ?? `HTTP ${status}`;
    if (/^[45]/.test(status) && !response.content) response.content = { 'application/json': { schema: ERROR_SCHEMA } };
  }
}

export function completeOpenApiDocument(document: OpenAPIObject, serverVersion: string): OpenAPIObject {
  document.info.version = serverVersion;
  for (const item of Object.values(document.paths) as Array<Record<string, Operation | undefined>>) {
    const put = item.put;
    if (put && !item.patch) {
      item.patch = {
        ...structuredClone(put),
        operationId: put.operationId ? `${put.operationId}_patch` : undefined,
        summary: `${put.summary ?? 'Partial update'} (PATCH, same as PUT)`,
      };
    }
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) completeOperation(operation);
    }
  }
  return document;
}
