import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, Observable } from 'rxjs';
import { Principal } from '../access/principal';
import { routeAccess } from '../access/route-access';
import { transactionEpilogue } from '../database/transaction-epilogue';
import { etagOf } from '../common/database/optimistic';
import { ApiError } from '../common/errors/api-error';
import { RawJson, Versioned } from '../common/http/versioned';
import { IDEMPOTENCY_HEADER, idempotencyScope, isValidIdempotencyKey, REPLAYED_HEADER, requestFingerprint, StoredResponse } from './idempotency-key';
import { IdempotencyService } from './idempotency.service';

/**
 * `Idempotency-Key` on every create (POST) route of an authenticated caller: the first
 * request executes and its answer is stored for 24 hours; a retry with the same key and
 * the same request gets that answer again, with `Idempotent-Replayed: true`, instead of
 * creating a second resource. Token exchanges are excluded (a token is not a resource).
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined || request.method !== 'POST' || !request.user) return next.handle();
    const { requirement } = routeAccess(this.reflector, context.getHandler(), context.getClass());
    if (requirement?.tokenExchange) return next.handle();
    return from(this.handle(context, next, request, request.user, header));
  }

  private async handle(context: ExecutionContext, next: CallHandler, request: FastifyRequest, principal: Principal, header: string | string[]): Promise<unknown> {
    if (typeof header !== 'string' || !isValidIdempotencyKey(header)) {
      throw ApiError.badRequest('Idempotency-Key must be 1 to 255 visible ASCII characters', [
        { message: 'must be 1 to 255 visible ASCII characters', code: 'invalid', fields: 'Idempotency-Key' },
      ]);
    }
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const [path, query = ''] = request.url.split('?', 2);
    const isUpload = String(request.headers['content-type'] ?? '').startsWith('multipart/');
    const claim = {
      scope: idempotencyScope(principal.organizationId, principal.userId, request.method, path, header),
      organizationId: principal.organizationId,
      fingerprint: requestFingerprint(query, request.body, isUpload ? String(request.headers['content-length'] ?? '') : undefined),
    };
    const outcome = await this.idempotency.claim(claim);
    if (!outcome.execute) return replay(reply, outcome.response);
    try {
      // Every transaction of the handler also records, atomically, that the write happened.
      const result = await transactionEpilogue.run(
        (manager) => this.idempotency.markWritten(manager, claim.scope),
        () => lastValueFrom(next.handle(), { defaultValue: undefined }),
      );
      await this.idempotency.complete(claim.scope, toStoredResponse(reply, result));
      return result;
    } catch (error) {
      await this.idempotency.release(claim.scope);
      throw error;
    }
  }
}

function toStoredResponse(reply: FastifyReply, result: unknown): StoredResponse {
  const versioned = result instanceof Versioned ? result : undefined;
  const body = versioned ? versioned.body : result;
  const bytes = body instanceof RawJson ? body.bytes : Buffer.isBuffer(body) ? body : body === undefined ? null : Buffer.from(JSON.stringify(body));
  const etag = versioned ? etagOf(versioned.version) : reply.getHeader('etag');
  return {
    status: reply.statusCode,
    contentType: bytes ? 'application/json; charset=utf-8' : null,
    etag: typeof etag === 'string' ? etag : null,
    body: bytes ? bytes.toString('base64') : null,
  };
}

function replay(reply: FastifyReply, response: StoredResponse): Buffer | undefined {
  reply.code(response.status).header(REPLAYED_HEADER, 'true');
  if (response.etag) reply.header('ETag', response.etag);
  if (response.contentType) reply.type(response.contentType);
  return response.body === null ? undefined : Buffer.from(response.body, 'base64');
}
