import { describe, expect, it } from 'vitest';
import { gatewayKeyFromAuthorization } from './gateway-credentials';
import { generateApiKey } from './secrets';

describe('gatewayKeyFromAuthorization', () => {
  const key = generateApiKey().secret;
  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

  it("takes the key in each form a Ruuvi Gateway's HTTP settings send it, and Basic's password", () => {
    expect(gatewayKeyFromAuthorization(`Bearer ${key}`)).toBe(key);
    expect(gatewayKeyFromAuthorization(`bearer   ${key}`)).toBe(key);
    expect(gatewayKeyFromAuthorization(`Token ${key}`)).toBe(key);
    expect(gatewayKeyFromAuthorization(key)).toBe(key);
    expect(gatewayKeyFromAuthorization(basic('gateway-1', key))).toBe(key);
    expect(gatewayKeyFromAuthorization(basic('', key))).toBe(key);
  });

  it('leaves anything that is not an API key in form to the usual strategies', () => {
    expect(gatewayKeyFromAuthorization(undefined)).toBeUndefined();
    expect(gatewayKeyFromAuthorization(['a', 'b'])).toBeUndefined();
    expect(gatewayKeyFromAuthorization('Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln')).toBeUndefined();
    expect(gatewayKeyFromAuthorization(basic('admin@example.test', 'a password'))).toBeUndefined();
    expect(gatewayKeyFromAuthorization(`Basic ${Buffer.from(key).toString('base64')}`)).toBeUndefined();
    expect(gatewayKeyFromAuthorization(`Bearer ${key.slice(0, -1)}!`)).toBeUndefined();
    expect(gatewayKeyFromAuthorization('')).toBeUndefined();
  });
});
