import { useEffect, useState } from 'preact/hooks';
import { onSessionExpired } from '../api';
import { ErrorBox, Loading } from '../components/ui';
import { LoginPage } from '../pages/login';
import { navigate, useLocation } from '../router';
import { loadSession, logOut, onLoggedOutElsewhere, Session } from '../session';
import { pageFor } from './routes';
import { Shell } from './shell';

/**
 * The session decides everything: without one, only the login form is shown, whatever the
 * address. It is checked again whenever the page may be an old copy (restored from the
 * back-forward cache) and dropped when any tab logs out, so a logged-out tab shows no data.
 */
export function App() {
  const url = useLocation();
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | undefined>();

  const check = () => {
    setLoadError(null);
    loadSession().then(setSession, setLoadError);
  };
  useEffect(() => {
    check();
    const restored = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      setSession(undefined);
      check();
    };
    addEventListener('pageshow', restored);
    const stopExpired = onSessionExpired(() => {
      setSession(null);
      setNotice('Your session has expired. Please log in again.');
    });
    const stopElsewhere = onLoggedOutElsewhere(() => {
      setSession(null);
      setNotice('You logged out in another tab.');
    });
    return () => {
      removeEventListener('pageshow', restored);
      stopExpired();
      stopElsewhere();
    };
  }, []);

  if (loadError) return <ErrorBox error={loadError} onRetry={check} />;
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
  const path = url.pathname === '/' || url.pathname === '/login' ? '/buildings' : url.pathname.replace(/\/+$/, '') || '/buildings';
  return (
    <Shell
      path={path}
      onLogOut={async () => {
        await logOut();
        setSession(null);
        setNotice('You are logged out.');
        navigate('/login', true);
      }}
    >
      {pageFor(path, url.search, session)}
    </Shell>
  );
}
