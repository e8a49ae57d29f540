import { describe, expect, it } from 'vitest';
import { ApiError } from '../api';
import { degrees, readBuilding, readNumber } from './building-input';

const draft = { name: 'HQ', description: '', lat: '42.8805', lng: '-8,5457', width: '80', length: '50', rotation: '90' };

describe('the building form', () => {
  it('reads decimals with a point or a comma, rotation in degrees', () => {
    expect(readNumber(' 12,5 ')).toBe(12.5);
    expect(readNumber('abc')).toBeNull();
    expect(readNumber('')).toBeNull();
    const body = readBuilding(draft);
    expect(body).toMatchObject({ location: { lat: 42.8805, lng: -8.5457 }, dimensions: { width: 80, length: 50 } });
    expect(degrees((body as { rotation: number }).rotation)).toBe(90);
  });

  it('names every wrong field in plain words, an empty one as needed', () => {
    const error = readBuilding({ ...draft, name: ' ', lat: 'abc', length: '' }) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.fieldMessage('name')).toBe('Give the building a name.');
    expect(error.fieldMessage('location.lat')).toBe('The latitude must be a number of degrees between -90 and 90, such as 42.8805.');
    expect(error.fieldMessage('dimensions.length')).toBe('Enter the length: a number of metres greater than 0 (at most 100,000).');
    expect(error.fieldMessage('location.lng')).toBeUndefined();
  });
});
