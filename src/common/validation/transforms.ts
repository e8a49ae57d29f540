import { Transform } from 'class-transformer';

/** Trims strings; leaves anything else for the validators to refuse. */
export const Trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/** Accepts an integer id as a number or a string of digits (`building_id: "5962"`). */
export const IntegerFromString = () => Transform(({ value }) => (typeof value === 'string' && /^\d{1,10}$/.test(value.trim()) ? Number(value.trim()) : value));

/** `true`/`false` query strings to booleans. */
export const BooleanFromString = () => Transform(({ value }) => (value === 'true' || value === true ? true : value === 'false' || value === false ? false : value));
