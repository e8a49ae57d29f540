/**
 * The dashboard's only door to the server: the same public API as every other client, with the
 * session in an HttpOnly cookie (never readable here) and a CSRF token echoed on every write.
 */
export interface FieldError {
  fields?: string;
  message: string;
  code?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: FieldError[] = [],
    readonly retryAfter?: string | null,
  ) {
    super(message);
  }

  /** The message for one field, for showing it next to that field. */
  fieldMessage(field: string): string | undefined {
    return this.errors.find((e) => e.fields === field || e.fields?.split(',').includes(field))?.message;
  }
}

export const CSRF_COOKIE = 'cartograph_csrf';
export const CSRF_HEADER = 'X-CSRF-Token';

function csrfToken(): string | undefined {
  const match = document.cookie.split('; ').find((c) => c.startsWith(`${CSRF_COOKIE}=`));
  return match ? decodeURIComponent(match.slice(CSRF_COOKIE.length + 1)) : undefined;
}

type SessionListener = () => void;
const expiredListeners = new Set<SessionListener>();
/** Called when an authenticated call answers 401: the session ended or expired. */
export function onSessionExpired(listener: SessionListener): () => void {
  expiredListeners.add(listener);
  return () => expiredListeners.delete(listener);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** For optimistic concurrency: the ETag the edit started from. */
  ifMatch?: string;
  /** Raw body (e.g. FormData for uploads); sent as is. */
  rawBody?: BodyInit;
  /** A 401 here is an answer, not an expired session (the login form). */
  expect401?: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  status: number;
  body: T;
  etag: string | null;
  headers: Headers;
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  if (method !== 'GET') {
    const token = csrfToken();
    if (token) headers[CSRF_HEADER] = token;
  }
  if (options.ifMatch) headers['If-Match'] = options.ifMatch;

  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, { method, headers, body, credentials: 'same-origin', signal: options.signal });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, 'network_error', 'The server cannot be reached. Check your connection and try again.');
  }
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!response.ok) {
    const e = (parsed && typeof parsed === 'object' ? parsed : {}) as { code?: string; message?: string; errors?: FieldError[] };
    const error = new ApiError(
      response.status,
      e.code ?? 'error',
      e.message ?? `The server answered ${response.status}`,
      Array.isArray(e.errors) ? e.errors : [],
      response.headers.get('Retry-After'),
    );
    if (response.status === 401 && !options.expect401) expiredListeners.forEach((l) => l());
    throw error;
  }
  return { status: response.status, body: parsed as T, etag: response.headers.get('ETag'), headers: response.headers };
}

export const api = {
  get: <T>(path: string, signal?: AbortSignal) => request<T>(path, { signal }).then((r) => r.body),
  post: <T>(path: string, body?: unknown) => request<T>(path, { method: 'POST', body }).then((r) => r.body),
  put: <T>(path: string, body: unknown, ifMatch?: string) => request<T>(path, { method: 'PUT', body, ifMatch }),
  del: (path: string, ifMatch?: string) => request<void>(path, { method: 'DELETE', ifMatch }),
};

/** Builds a query string, leaving out empty values; lists are comma-joined. */
export function query(params: Record<string, string | number | boolean | undefined | null | Array<string | number>>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      if (value.length) search.set(key, value.join(','));
    } else search.set(key, String(value));
  }
  const s = search.toString();
  return s ? `?${s}` : '';
}

interface PageEnvelope<T> {
  data: T[];
  metadata?: { last?: boolean; total_pages?: number };
}

/** Every item of a paginated list (1,000 a page, the server's maximum), or of a plain array answer. */
export async function getAll<T>(path: string, signal?: AbortSignal): Promise<T[]> {
  const items: T[] = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let page = 1; ; page++) {
    const body = await api.get<PageEnvelope<T> | T[]>(`${path}${sep}page=${page}&size=1000`, signal);
    if (Array.isArray(body)) return body;
    items.push(...body.data);
    if (body.metadata?.last !== false || body.data.length === 0) return items;
  }
}
