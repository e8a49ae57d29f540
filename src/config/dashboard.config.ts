import { ConfigurationError, Env, readOptionalString } from './env';

/**
 * An optional basemap under the floor plans, from a tile server the operator runs or trusts:
 * `DASHBOARD_BASEMAP_URL` (an http(s) URL template with {z}, {x} and {y}) and
 * `DASHBOARD_BASEMAP_ATTRIBUTION`. None by default: the dashboard works offline.
 */
export interface Basemap {
  url: string;
  attribution: string;
  origin: string;
}

export function readBasemap(env: Env = process.env): Basemap | null {
  const url = readOptionalString(env, 'DASHBOARD_BASEMAP_URL');
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url.replace(/[{}]/g, ''));
  } catch {
    throw new ConfigurationError(`DASHBOARD_BASEMAP_URL is not a URL: ${url}`, 'DASHBOARD_BASEMAP_URL');
  }
  if (!/^https?:$/.test(parsed.protocol) || !['{z}', '{x}', '{y}'].every((part) => url.includes(part))) {
    throw new ConfigurationError(`DASHBOARD_BASEMAP_URL must be an http(s) URL template with {z}, {x} and {y}: ${url}`, 'DASHBOARD_BASEMAP_URL');
  }
  return { url, attribution: env.DASHBOARD_BASEMAP_ATTRIBUTION?.trim() ?? '', origin: parsed.origin };
}
