import { Param, ParseUUIDPipe, PipeTransform } from '@nestjs/common';
import { ApiError } from '../errors/api-error';

/** A UUID path parameter; anything else is 400 bad_request (contract section 3). */
export const UuidParam = (name: string) =>
  Param(name, new ParseUUIDPipe({ exceptionFactory: () => ApiError.badRequest(`The path parameter "${name}" must be a UUID`) }));

export const MAX_INTEGER_ID = 2_147_483_647;

class ParseIdPipe implements PipeTransform<string, number> {
  constructor(private readonly name: string) {}

  transform(value: string): number {
    const id = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
    if (!Number.isInteger(id) || id < 1 || id > MAX_INTEGER_ID) {
      throw ApiError.badRequest(`The path parameter "${this.name}" must be a positive integer id`);
    }
    return id;
  }
}

/** An integer id path parameter (buildings, floors, POIs); anything else is 400 bad_request. */
export const IdParam = (name: string) => Param(name, new ParseIdPipe(name));
