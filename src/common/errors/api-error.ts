import { ErrorCode } from './error-code';

export interface FieldError {
  message: string;
  code: string;
  fields: string;
  value?: unknown;
}

export interface ErrorBody {
  status: number;
  code: ErrorCode | string;
  message: string;
  errors: FieldError[];
}

/**
 * A domain error with the contract's status and code. Services throw these; the global
 * exception filter renders them unchanged.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly errors: FieldError[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): ErrorBody {
    return { status: this.status, code: this.code, message: this.message, errors: this.errors };
  }

  static badRequest(message: string, errors: FieldError[] = []): ApiError {
    return new ApiError(400, ErrorCode.BadRequest, message, errors);
  }

  static unauthorized(message = 'Authentication is required'): ApiError {
    return new ApiError(401, ErrorCode.Unauthorized, message);
  }

  static invalidCredentials(): ApiError {
    return new ApiError(401, ErrorCode.InvalidCredentials, 'Invalid e-mail or password');
  }

  static forbidden(message = 'Your credentials do not permit this operation'): ApiError {
    return new ApiError(403, ErrorCode.Forbidden, message);
  }

  static notFound(entity: string, id?: string | number): ApiError {
    const suffix = id === undefined ? '' : ` ${id}`;
    return new ApiError(404, ErrorCode.EntityNotFound, `${entity}${suffix} not found`);
  }

  static conflict(message: string, errors: FieldError[] = []): ApiError {
    return new ApiError(409, ErrorCode.Conflict, message, errors);
  }

  static validation(message: string, errors: FieldError[]): ApiError {
    return new ApiError(422, ErrorCode.ValidationFailed, message, errors);
  }

  static payloadTooLarge(limitBytes: number): ApiError {
    return new ApiError(413, ErrorCode.PayloadTooLarge, `The upload is larger than ${Math.floor(limitBytes / (1024 * 1024))} MiB`);
  }

  static tooManyRequests(retryAfterSeconds: number): ApiError {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    return new ApiError(429, ErrorCode.TooManyRequests, 'Too many requests, try again later', [], {
      'Retry-After': String(seconds),
    });
  }

  static serviceUnavailable(message = 'The database cannot be reached'): ApiError {
    return new ApiError(503, ErrorCode.ServiceUnavailable, message, [], { 'Retry-After': '5' });
  }
}
