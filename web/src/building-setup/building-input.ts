import { ApiError, FieldError } from '../api';

/** What a person types in the building form (all text), read into the API's body or refused in plain words. */
export interface BuildingDraft {
  name: string;
  description: string;
  lat: string;
  lng: string;
  width: string;
  length: string;
  /** Degrees, counter-clockwise (the API takes radians). */
  rotation: string;
}

export interface BuildingBody {
  name: string;
  description: string;
  location: { lat: number; lng: number };
  dimensions: { width: number; length: number };
  rotation: number;
}

/** A decimal number as people type it: a comma for the point is fine, spaces around it too. */
export function readNumber(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

export const degrees = (radians: number) => Math.round(((radians * 180) / Math.PI) * 1000) / 1000;
export const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** The body for the API, or an ApiError naming each field that is not right (the same shape the server answers). */
export function readBuilding(draft: BuildingDraft): BuildingBody | ApiError {
  const errors: FieldError[] = [];
  const number = (text: string, field: string, label: string, check: (n: number) => boolean, rule: string) => {
    const n = readNumber(text);
    if (n === null || !check(n)) {
      errors.push({ fields: field, message: text.trim() === '' ? `Enter the ${label}: ${rule}.` : `The ${label} must be ${rule}.` });
      return 0;
    }
    return n;
  };
  if (!draft.name.trim()) errors.push({ fields: 'name', message: 'Give the building a name.' });
  const lat = number(draft.lat, 'location.lat', 'latitude', (n) => n >= -90 && n <= 90, 'a number of degrees between -90 and 90, such as 42.8805');
  const lng = number(draft.lng, 'location.lng', 'longitude', (n) => n >= -180 && n <= 180, 'a number of degrees between -180 and 180, such as -8.5457');
  const width = number(draft.width, 'dimensions.width', 'width', (n) => n > 0 && n <= 100_000, 'a number of metres greater than 0 (at most 100,000)');
  const length = number(draft.length, 'dimensions.length', 'length', (n) => n > 0 && n <= 100_000, 'a number of metres greater than 0 (at most 100,000)');
  const rotation = number(draft.rotation.trim() || '0', 'rotation', 'rotation', (n) => n >= -360 && n <= 360, 'a number of degrees between -360 and 360');
  if (errors.length) return new ApiError(422, 'validation_failed', 'Some fields need a change: see the messages under them.', errors);
  return { name: draft.name.trim(), description: draft.description, location: { lat, lng }, dimensions: { width, length }, rotation: radians(rotation) };
}
