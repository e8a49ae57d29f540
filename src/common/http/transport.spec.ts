import { describe, expect, it } from 'vitest';
import { readTransportConfig } from '../../config/transport.config';
import { rawErrorResponse } from './transport';

describe('rawErrorResponse', () => {
  it('is a complete HTTP/1.1 answer in the contract error shape, closing the connection', () => {
    const raw = rawErrorResponse(431, 'The request line or headers are too large');
    const [head, body] = raw.split('\r\n\r\n');
    const [statusLine, ...headerLines] = head.split('\r\n');
    expect(statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    const headers = Object.fromEntries(headerLines.map((line) => line.split(': ')));
    expect(headers).toMatchObject({ 'Content-Type': 'application/json; charset=utf-8', Connection: 'close', 'Cache-Control': 'no-store' });
    expect(Number(headers['Content-Length'])).toBe(Buffer.byteLength(body));
    expect(JSON.parse(body)).toEqual({ status: 431, code: 'header_fields_too_large', message: 'The request line or headers are too large', errors: [] });
  });

  it('carries extra headers such as Retry-After', () => {
    expect(rawErrorResponse(429, 'Too many', { 'Retry-After': '1' })).toContain('\r\nRetry-After: 1\r\n');
  });
});

describe('readTransportConfig', () => {
  it('has bounded defaults', () => {
    expect(readTransportConfig({})).toEqual({
      requestTimeoutMs: 60_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
      connectionTimeoutMs: 120_000,
      maxConnectionsPerClient: 100,
      hsts: 'auto',
      hstsMaxAgeSeconds: 31_536_000,
    });
  });

  it('takes HSTS auto, always or off, and nothing else', () => {
    expect(readTransportConfig({ HSTS: 'always', HSTS_MAX_AGE_SECONDS: '600' })).toMatchObject({ hsts: 'always', hstsMaxAgeSeconds: 600 });
    expect(() => readTransportConfig({ HSTS: 'yes' })).toThrow(/HSTS must be auto, always or off/);
  });

  it('never lets the headers take longer than the whole request', () => {
    expect(readTransportConfig({ REQUEST_TIMEOUT_MS: '2000', HEADERS_TIMEOUT_MS: '9000' }).headersTimeoutMs).toBe(2000);
  });

  it('refuses a request timeout of 0 (unbounded)', () => {
    expect(() => readTransportConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow(/REQUEST_TIMEOUT_MS/);
  });
});
