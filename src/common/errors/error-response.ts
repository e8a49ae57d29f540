import { HttpException } from '@nestjs/common';
import { ApiError, ErrorBody } from './api-error';
import { defaultCodeForStatus, ErrorCode } from './error-code';
import { isDatabaseUnavailableError, isForeignKeyViolation, isUniqueViolation, isUnstorableText } from './database-errors';

export interface RenderedError {
  body: ErrorBody;
  headers: Record<string, string>;
  /** True when the error is unexpected and deserves a server-side log line with its stack. */
  unexpected: boolean;
}

interface FrameworkError {
  statusCode?: unknown;
  status?: unknown;
  code?: unknown;
  message?: unknown;
}

const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty but its content type is application/json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON',
  FST_ERR_BAD_URL: 'The URL is not valid (a path segment is not well-formed percent-encoding)',
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is too long',
  ERR_HTTP_REQUEST_TIMEOUT: 'The request was not received in time',
  HPE_HEADER_OVERFLOW: 'The request line or headers are too large',
};

function rendered(status: number, code: ErrorCode, message: string, headers: Record<string, string> = {}): RenderedError {
  return { body: { status, code, message, errors: [] }, headers, unexpected: false };
}

function fromHttpException(exception: HttpException, context: ErrorContext): RenderedError {
  const status = exception.getStatus();
  if (status === 413 && context.bodyLimit !== undefined) return bodyTooLarge(context.bodyLimit);
  const response = exception.getResponse();
  const responseMessage = typeof response === 'object' && response !== null && 'message' in response ? (response as { message: unknown }).message : response;
  const message = Array.isArray(responseMessage) ? responseMessage.join('; ') : String(responseMessage ?? exception.message);
  switch (status) {
    case 404:
      // The application throws ApiError for unknown entities: a bare 404 comes from the router.
      return rendered(404, ErrorCode.RouteNotFound, message.startsWith('Cannot ') ? `Route not found: ${message.slice(7)}` : 'Route not found');
    case 429:
      return rendered(429, ErrorCode.TooManyRequests, 'Too many requests, try again later', { 'Retry-After': '60' });
    case 503:
      return rendered(503, ErrorCode.ServiceUnavailable, 'The service is not ready', { 'Retry-After': '5' });
    default:
      if (status >= 500) return { ...rendered(status, ErrorCode.InternalError, 'An unexpected error occurred'), unexpected: true };
      return rendered(status, defaultCodeForStatus(status), message);
  }
}

/** What the request was served under, when an error's message should name it. */
export interface ErrorContext {
  /** The route's body limit (bytes): a 413 names it. */
  bodyLimit?: number;
}

/** `1 MiB`, `3 MiB`, `512 KiB`. */
export function formatByteLimit(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

function bodyTooLarge(limit: number): RenderedError {
  return rendered(413, ErrorCode.PayloadTooLarge, `The request body is larger than the ${formatByteLimit(limit)} this route accepts`);
}

/** Errors raised by Fastify itself (body parsing, limits) carry a statusCode and an FST_ code. */
function fromFrameworkError(error: FrameworkError, context: ErrorContext): RenderedError | undefined {
  const status = typeof error.statusCode === 'number' ? error.statusCode : undefined;
  if (status === undefined || status < 400 || status >= 500) return undefined;
  const code = typeof error.code === 'string' ? error.code : '';
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' && context.bodyLimit !== undefined) return bodyTooLarge(context.bodyLimit);
  const message = FASTIFY_MESSAGES[code] ?? (error instanceof SyntaxError ? FASTIFY_MESSAGES.FST_ERR_CTP_INVALID_JSON_BODY : 'The request is not valid');
  return rendered(status, defaultCodeForStatus(status), message);
}

/** Turns anything thrown while serving a request into the contract's error shape. */
export function renderError(exception: unknown, context: ErrorContext = {}): RenderedError {
  if (exception instanceof ApiError) {
    return { body: exception.toBody(), headers: exception.headers, unexpected: false };
  }
  if (exception instanceof HttpException) {
    return fromHttpException(exception, context);
  }
  if (isDatabaseUnavailableError(exception)) {
    const error = ApiError.serviceUnavailable();
    return { body: error.toBody(), headers: error.headers, unexpected: false };
  }
  if (isUniqueViolation(exception)) {
    return rendered(409, ErrorCode.Conflict, 'A resource with the same unique value already exists');
  }
  if (isForeignKeyViolation(exception)) {
    return rendered(409, ErrorCode.Conflict, 'A resource this one refers to was changed or removed at the same time; retry');
  }
  if (isUnstorableText(exception)) {
    return rendered(400, ErrorCode.BadRequest, 'The request holds text that cannot be stored (for example a NUL character)');
  }
  if (exception !== null && typeof exception === 'object') {
    const framework = fromFrameworkError(exception as FrameworkError, context);
    if (framework) return framework;
  }
  return { ...rendered(500, ErrorCode.InternalError, 'An unexpected error occurred'), unexpected: true };
}
