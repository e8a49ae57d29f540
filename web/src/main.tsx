import { render } from 'preact';
import { lazy, Suspense } from 'preact/compat';
import { useEffect, useState } from 'preact/hooks';
import { onSessionExpired } from './api';
import { ErrorBox, Loading } from './components/ui';
import { AdminPage } from './pages/admin';
import { BuildingPage, BuildingsPage } from './pages/buildings';
import { EventsPage } from './pages/events';
import { LoginPage } from './pages/login';
import { ProfilePage } from './pages/profile';
import { WebhooksPage } from './pages/webhooks';
import { match, navigate, onLinkClick, useLocation } from './router';
import { loadSession, logOut, Session } from './session';
import './styles.css';

// The map library is large: it loads only when a map page opens.
const FloorMapPage = lazy(() => import('./pages/floor-map').then((m) => ({ default: m.FloorMapPage })));
// So is the charting library: only the analytics page loads it.
const AnalyticsPage = lazy(() => import('./pages/analytics').then((m) => ({ default: m.AnalyticsPage })));

function App() {
  const url = useLocation();
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | undefined>();

  useEffect(() => {
    loadSession().then(setSession, setLoadError);
    return onSessionExpired(() => {
      setSession(null);
      setNotice('Your session has expired. Please log in again.');
    });
  }, []);

  if (loadError) return <ErrorBox error={loadError} />;
  if (session === undefined) return <Loading what="Cartograph" />;
  if (session === null) {
    return (
      <LoginPage
        notice={notice}
        onLoggedIn={(s) => {
          setNotice(undefined);
          setSession(s);
          if (url.pathname === '/login') navigate('/buildings', true);
        }}
      />
    );
  }

  const isAdmin = session.user.role === 'ADMIN_ORG';
  const path = url.pathname === '/' || url.pathname === '/login' ? '/buildings' : url.pathname;
  let page;
  let params: Record<string, string> | null;
  if ((params = match('/buildings/:id/floors/:floorId/map', path)))
    page = (
      <Suspense fallback={<Loading what="the map" />}>
        <FloorMapPage buildingId={params.id} floorId={params.floorId} />
      </Suspense>
    );
  else if ((params = match('/buildings/:id', path))) page = <BuildingPage id={params.id} canWrite />;
  else if (match('/buildings', path)) page = <BuildingsPage canWrite />;
  else if (match('/profile', path)) page = <ProfilePage session={session} />;
  else if (match('/admin', path) && isAdmin) page = <AdminPage />;
  else if (match('/events', path)) page = <EventsPage />;
  else if (match('/webhooks', path)) page = <WebhooksPage />;
  else if (match('/analytics', path))
    page = (
      <Suspense fallback={<Loading what="analytics" />}>
        <AnalyticsPage search={url.search} />
      </Suspense>
    );
  else page = <p>There is no page at {path}.</p>;

  return (
    <div class="shell" onClick={onLinkClick}>
      <header class="top">
        <a class="brand" href="/buildings">
          Cartograph
        </a>
        <nav aria-label="Main">
          <a href="/buildings" aria-current={path.startsWith('/buildings') ? 'page' : undefined}>
            Buildings
          </a>
          <a href="/analytics" aria-current={path === '/analytics' ? 'page' : undefined}>
            Analytics
          </a>
          <a href="/events" aria-current={path === '/events' ? 'page' : undefined}>
            Events
          </a>
          <a href="/webhooks" aria-current={path === '/webhooks' ? 'page' : undefined}>
            Webhooks
          </a>
          {isAdmin && (
            <a href="/admin" aria-current={path === '/admin' ? 'page' : undefined}>
              Users
            </a>
          )}
          <a href="/profile" aria-current={path === '/profile' ? 'page' : undefined}>
            Profile
          </a>
        </nav>
        <button
          type="button"
          class="btn plain"
          onClick={async () => {
            await logOut();
            setSession(null);
            setNotice('You are logged out.');
            navigate('/login', true);
          }}
        >
          Log out
        </button>
      </header>
      <main class="content">{page}</main>
    </div>
  );
}

render(<App />, document.getElementById('app')!);
