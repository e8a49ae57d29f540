import { describe, expect, it } from 'vitest';
import { match } from './router';

describe('route matching', () => {
  it('matches literal segments and captures parameters', () => {
    expect(match('/buildings/:id/floors/:floorId/map', '/buildings/12/floors/3/map')).toEqual({ id: '12', floorId: '3' });
    expect(match('/buildings', '/buildings/')).toEqual({});
    expect(match('/buildings/:id', '/buildings/a%20b')).toEqual({ id: 'a b' });
  });

  it('refuses other shapes', () => {
    expect(match('/buildings/:id', '/buildings')).toBeNull();
    expect(match('/buildings/:id', '/floors/1')).toBeNull();
    expect(match('/profile', '/profile/x')).toBeNull();
  });
});
