import { ValidateIf } from 'class-validator';

/**
 * The field may be left out, but not sent as null: class-validator's IsOptional also lets
 * null through, which would reach NOT NULL columns. Fields that accept null say so with
 * IsOptional and their own ValidateIf.
 */
export const Optional = () => ValidateIf((_object, value) => value !== undefined);
