import { describe, expect, it } from 'vitest';
import { readBasemap } from '../config/dashboard.config';
import { dashboardCsp, withSettings } from './dashboard';

describe('the operator basemap', () => {
  it('is off by default: nothing outside the server is allowed', () => {
    expect(readBasemap({})).toBeNull();
    expect(dashboardCsp()).toContain("img-src 'self' data: blob:;");
    expect(withSettings('<head></head>', null)).toBe('<head></head>');
  });

  it('takes an http(s) tile template with {z}, {x} and {y}, and refuses anything else at start', () => {
    expect(readBasemap({ DASHBOARD_BASEMAP_URL: 'https://tiles.example.org/{z}/{x}/{y}.png', DASHBOARD_BASEMAP_ATTRIBUTION: '© OSM' })).toEqual({
      url: 'https://tiles.example.org/{z}/{x}/{y}.png',
      attribution: '© OSM',
      origin: 'https://tiles.example.org',
    });
    expect(() => readBasemap({ DASHBOARD_BASEMAP_URL: 'https://tiles.example.org/tiles.png' })).toThrow(/\{z\}, \{x\} and \{y\}/);
    expect(() => readBasemap({ DASHBOARD_BASEMAP_URL: 'ftp://tiles.example.org/{z}/{x}/{y}' })).toThrow(/http/);
    expect(() => readBasemap({ DASHBOARD_BASEMAP_URL: 'not a url {z}{x}{y}' })).toThrow(/not a URL/);
  });

  it('escapes what it writes into the page', () => {
    const page = withSettings('<html><head></head></html>', { url: 'https://t.example/{z}/{x}/{y}?a=1&b="2"', attribution: '<b>x</b>', origin: 'https://t.example' });
    expect(page).toContain('content="https://t.example/{z}/{x}/{y}?a=1&amp;b=&quot;2&quot;" data-attribution="&lt;b&gt;x&lt;/b&gt;"');
  });
});
