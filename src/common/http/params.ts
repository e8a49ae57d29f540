import { Param, ParseIntPipe, ParseUUIDPipe } from '@nestjs/common';
import { ApiError } from '../errors/api-error';

/** A UUID path parameter; anything else is 400 bad_request (contract section 3). */
export const UuidParam = (name: string) =>
  Param(name, new ParseUUIDPipe({ exceptionFactory: () => ApiError.badRequest(`The path parameter "${name}" must be a UUID`) }));

/** An integer path parameter; anything else is 400 bad_request. */
export const IntegerParam = (name: string) =>
  Param(name, new ParseIntPipe({ exceptionFactory: () => ApiError.badRequest(`The path parameter "${name}" must be an integer`) }));
