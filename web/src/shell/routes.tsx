import type { ComponentChildren } from 'preact';
import { lazy, Suspense } from 'preact/compat';
import { Loading } from '../components/ui';
import { BuildingsPage } from '../pages/buildings';
import { NotFoundPage } from '../pages/not-found';
import { match } from '../router';
import type { Session } from '../session';

// Each page but the buildings list (where a session lands) is its own chunk: a page loads
// only its code. The map pages bring Leaflet, the analytics page uPlot.
const FloorMapPage = lazy(() => import('../floor-map/floor-map-page').then((m) => ({ default: m.FloorMapPage })));
const PlacementPage = lazy(() => import('../building-setup/placement-page').then((m) => ({ default: m.PlacementPage })));
const BuildingPage = lazy(() => import('../pages/building').then((m) => ({ default: m.BuildingPage })));
const AnalyticsPage = lazy(() => import('../pages/analytics').then((m) => ({ default: m.AnalyticsPage })));
const DevicesPage = lazy(() => import('../devices/devices-page').then((m) => ({ default: m.DevicesPage })));
const EventsPage = lazy(() => import('../pages/events').then((m) => ({ default: m.EventsPage })));
const WebhooksPage = lazy(() => import('../webhooks/webhooks-page').then((m) => ({ default: m.WebhooksPage })));
const AdminPage = lazy(() => import('../admin/admin-page').then((m) => ({ default: m.AdminPage })));
const SettingsPage = lazy(() => import('../admin/settings-page').then((m) => ({ default: m.SettingsPage })));
const ProfilePage = lazy(() => import('../pages/profile').then((m) => ({ default: m.ProfilePage })));
const ApiKeysPage = lazy(() => import('../pages/api-keys').then((m) => ({ default: m.ApiKeysPage })));
const StartPage = lazy(() => import('../onboarding/start-page').then((m) => ({ default: m.StartPage })));

const wait = (what: string, page: ComponentChildren) => <Suspense fallback={<Loading what={what} />}>{page}</Suspense>;

/** The page at `path`, with what it needs from the session and the URL. */
export function pageFor(path: string, search: string, session: Session): ComponentChildren {
  const isAdmin = session.user.role === 'ADMIN_ORG';
  let p: Record<string, string> | null;
  if ((p = match('/buildings/:id/floors/:floorId/map', path))) return wait('the map', <FloorMapPage buildingId={p.id} floorId={p.floorId} search={search} />);
  if ((p = match('/buildings/:id/place', path))) return wait('the building setup', <PlacementPage buildingId={p.id} />);
  if ((p = match('/buildings/:id', path))) return wait('the building', <BuildingPage id={p.id} />);
  if (match('/buildings', path)) return <BuildingsPage />;
  if (match('/start', path)) return wait('the guide', <StartPage />);
  if (match('/devices', path)) return wait('devices', <DevicesPage search={search} isAdmin={isAdmin} />);
  if (match('/analytics', path)) return wait('analytics', <AnalyticsPage search={search} />);
  if (match('/events', path)) return wait('events', <EventsPage />);
  if (match('/webhooks', path)) return wait('webhooks', <WebhooksPage isAdmin={isAdmin} />);
  if (match('/admin', path)) return wait('users', <AdminPage isAdmin={isAdmin} self={session.user.id} />);
  if (match('/settings', path)) return wait('settings', <SettingsPage isAdmin={isAdmin} />);
  if (match('/api-keys', path)) return wait('API keys', <ApiKeysPage />);
  if (match('/profile', path)) return wait('your profile', <ProfilePage session={session} />);
  return <NotFoundPage path={path} />;
}

export const NAV: ReadonlyArray<{ href: string; label: string; section: string }> = [
  { href: '/buildings', label: 'Buildings', section: '/buildings' },
  { href: '/devices', label: 'Devices', section: '/devices' },
  { href: '/analytics', label: 'Analytics', section: '/analytics' },
  { href: '/events', label: 'Events', section: '/events' },
  { href: '/webhooks', label: 'Webhooks', section: '/webhooks' },
  { href: '/api-keys', label: 'API keys', section: '/api-keys' },
  { href: '/admin', label: 'Users', section: '/admin' },
  { href: '/settings', label: 'Settings', section: '/settings' },
  { href: '/profile', label: 'Profile', section: '/profile' },
];
