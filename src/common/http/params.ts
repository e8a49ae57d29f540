import { Param, PipeTransform } from '@nestjs/common';
import { ApiError } from '../errors/api-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class ParseUuidPipe implements PipeTransform<string, string> {
  constructor(private readonly name: string) {}

  /** UUIDs compare case-insensitively; ids are stored lower-case on both databases. */
  transform(value: string): string {
    if (!UUID.test(value)) throw ApiError.badRequest(`The path parameter "${this.name}" must be a UUID`);
    return value.toLowerCase();
  }
}

/** A UUID path parameter; anything else is 400 bad_request (contract section 3). */
export const UuidParam = (name: string) => Param(name, new ParseUuidPipe(name));

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
