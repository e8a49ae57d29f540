import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { parseIfMatch } from '../database/optimistic';

/**
 * The versions the request's `If-Match` header asks for (see parseIfMatch). A custom
 * decorator rather than `@Headers('if-match')`, which would add a second, required and
 * lowercase `if-match` parameter to the OpenAPI document beside the documented `If-Match`
 * (Swagger UI then refuses to send the request). The header is documented by DocumentedUpdate.
 */
export const IfMatch = createParamDecorator((_data: unknown, context: ExecutionContext): number[] | undefined =>
  parseIfMatch(context.switchToHttp().getRequest<FastifyRequest>().headers['if-match']),
);
