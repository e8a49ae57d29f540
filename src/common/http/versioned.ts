import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { map, Observable } from 'rxjs';
import { etagOf } from '../database/optimistic';

/** A response body with the version of the resource it shows; sent with an ETag header. */
export class Versioned<T> {
  constructor(
    readonly body: T,
    /** The resource's version, or a tag that also names what it embeds (`3.7`). */
    readonly version: number | string,
  ) {}
}

/** A response body already serialized to JSON (for example a cached document). */
export class RawJson {
  constructor(readonly bytes: Buffer) {}
}

/** Unwraps `Versioned` handler results into their body plus an `ETag` header. */
@Injectable()
export class VersionedResponseInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((result: unknown) => {
        if (!(result instanceof Versioned)) return result;
        const reply = context.switchToHttp().getResponse<FastifyReply>().header('ETag', etagOf(result.version));
        if (!(result.body instanceof RawJson)) return result.body;
        reply.type('application/json; charset=utf-8');
        return result.body.bytes;
      }),
    );
  }
}
