import { api, ApiError, request } from './api';

export type Role = 'ADMIN_ORG' | 'USER';

export interface SessionUser {
  id: string;
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  role: Role;
  organization_id: string;
}

export interface Session {
  user: SessionUser;
  expires_at: string;
}

/** The current session, or null when there is none (a 401 is the normal "logged out" answer). */
export async function loadSession(): Promise<Session | null> {
  try {
    return (await request<Session>('/auth/session', { expect401: true })).body;
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return null;
    throw e;
  }
}

/** Basic credentials, UTF-8 encoded (btoa alone refuses characters beyond Latin-1). */
function basic(email: string, password: string): string {
  const bytes = new TextEncoder().encode(`${email}:${password}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

/** The same password check as the token endpoint; the answer sets the session cookies. */
export async function logIn(email: string, password: string): Promise<Session> {
  return (await request<Session>('/auth/session', { method: 'POST', headers: { Authorization: basic(email, password) }, expect401: true })).body;
}

/** Tabs of the dashboard tell each other about a log out, so none keeps showing data. */
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('cartograph-session') : null;

export async function logOut(): Promise<void> {
  await api.del('/auth/session').catch(() => undefined);
  channel?.postMessage('logged-out');
}

/** Called when another tab logged out (the session cookie is gone for this one too). */
export function onLoggedOutElsewhere(listener: () => void): () => void {
  const handle = (event: MessageEvent) => event.data === 'logged-out' && listener();
  channel?.addEventListener('message', handle);
  return () => channel?.removeEventListener('message', handle);
}
