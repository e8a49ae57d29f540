import { Type } from '@nestjs/common';
import { PartialType } from '@nestjs/swagger';
import { IsOptional, ValidateIf } from 'class-validator';

/**
 * The field may be left out, but not sent as null: class-validator's IsOptional also lets
 * null through, which would reach NOT NULL columns and where conditions (a 500, not a 422).
 */
export const Optional = () => ValidateIf((_object, value) => value !== undefined);

/**
 * The field may be left out or sent as null (null clears it). Only for fields the API documents
 * as nullable (`nullable: true` in their ApiProperty): src/nullable-fields.spec.ts checks it.
 */
export const Nullable = () => IsOptional();

/**
 * The body of a partial update: every field of `classRef` optional, none of them null unless the
 * field itself is Nullable. Swagger's PartialType alone marks every field IsOptional, null included.
 */
export const PartialUpdate = <T>(classRef: Type<T>) => PartialType(classRef, { skipNullProperties: false });
