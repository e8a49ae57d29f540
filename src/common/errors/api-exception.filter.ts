import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { renderError } from './error-response';

/** The single place where errors become HTTP responses (contract section 3). */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    sendError(reply, exception, this.logger);
  }
}

export function sendError(reply: FastifyReply, exception: unknown, logger: Logger): void {
  // The limit in force where the body was refused: the route's own, or the server's.
  const limit = (reply.request as { routeOptions?: { bodyLimit?: unknown } } | undefined)?.routeOptions?.bodyLimit;
  const { body, headers, unexpected } = renderError(exception, { bodyLimit: typeof limit === 'number' ? limit : undefined });
  if (unexpected) {
    logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
  }
  if (reply.sent) return;
  reply.headers(headers).code(body.status).type('application/json; charset=utf-8').send(body);
}
