/** Error codes of the wire contract (API-CONTRACT.md section 3). */
export enum ErrorCode {
  BadRequest = 'bad_request',
  Unauthorized = 'unauthorized',
  InvalidCredentials = 'invalid_credentials',
  Forbidden = 'forbidden',
  EntityNotFound = 'entity_not_found',
  RouteNotFound = 'route_not_found',
  MethodNotAllowed = 'method_not_allowed',
  Conflict = 'conflict',
  RequestTimeout = 'request_timeout',
  UriTooLong = 'uri_too_long',
  HeaderFieldsTooLarge = 'header_fields_too_large',
  PayloadTooLarge = 'payload_too_large',
  UnsupportedMediaType = 'unsupported_media_type',
  ValidationFailed = 'validation_failed',
  TooManyRequests = 'too_many_requests',
  ServiceUnavailable = 'service_unavailable',
  OutputTooLarge = 'output_too_large',
  CursorExpired = 'cursor_expired',
  /** Directions: an end of the route is not near enough to a usable path (issue 40). */
  EndUnreachable = 'end_unreachable',
  /** Directions: no route joins the two ends under the request's options. */
  NoRoute = 'no_route',
  InternalError = 'internal_error',
}

/** The code a bare HTTP status maps to when nothing more specific is known. */
export function defaultCodeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return ErrorCode.BadRequest;
    case 401:
      return ErrorCode.Unauthorized;
    case 403:
      return ErrorCode.Forbidden;
    case 404:
      return ErrorCode.EntityNotFound;
    case 405:
      return ErrorCode.MethodNotAllowed;
    case 408:
      return ErrorCode.RequestTimeout;
    case 409:
      return ErrorCode.Conflict;
    case 413:
      return ErrorCode.PayloadTooLarge;
    case 414:
      return ErrorCode.UriTooLong;
    case 415:
      return ErrorCode.UnsupportedMediaType;
    case 422:
      return ErrorCode.ValidationFailed;
    case 429:
      return ErrorCode.TooManyRequests;
    case 431:
      return ErrorCode.HeaderFieldsTooLarge;
    case 503:
      return ErrorCode.ServiceUnavailable;
    default:
      return status >= 400 && status < 500 ? ErrorCode.BadRequest : ErrorCode.InternalError;
  }
}
