import { useEffect, useState } from 'preact/hooks';

/** History-API routing: the server answers every non-API GET with the dashboard's index.html. */
export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
}

export function useLocation(): URL {
  const [url, setUrl] = useState(() => new URL(location.href));
  useEffect(() => {
    const update = () => setUrl(new URL(location.href));
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  return url;
}

/** Matches `/buildings/:id` against a path; returns the parameters or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/').filter(Boolean);
  const s = path.split('/').filter(Boolean);
  if (p.length !== s.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) params[p[i].slice(1)] = decodeURIComponent(s[i]);
    else if (p[i] !== s[i]) return null;
  }
  return params;
}

/** Same-origin links without a full page load. */
export function onLinkClick(event: MouseEvent): void {
  const anchor = (event.target as HTMLElement).closest('a');
  if (!anchor || anchor.target || anchor.origin !== location.origin || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  // API links (CSV reports) and downloads (files made in the page) are the browser's to fetch.
  if (anchor.pathname.startsWith('/api/') || anchor.hasAttribute('download')) return;
  event.preventDefault();
  navigate(anchor.pathname + anchor.search);
}
