import { useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { ActionButton, ErrorBox, Field, submitWith } from '../components/ui';
import type { Session } from '../session';

export function ProfilePage({ session }: { session: Session }) {
  return (
    <section>
      <h1>Profile</h1>
      <p>
        Signed in as <strong>{session.user.email}</strong> ({session.user.role === 'ADMIN_ORG' ? 'administrator' : 'user'}).
      </p>
      <p>
        Your API keys are on <a href="/api-keys">their own page</a>.
      </p>
      <ChangePassword />
    </section>
  );
}

function ChangePassword() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const run = async () => {
    setError(null);
    setDone(false);
    try {
      await api.put('/users/me/password', { current_password: current, new_password: next });
      setCurrent('');
      setNext('');
      setDone(true);
    } catch (e) {
      setError(e);
    }
  };
  return (
    <section aria-labelledby="password-title">
      <h2 id="password-title">Change password</h2>
      <form class="narrow" onSubmit={submitWith(run)}>
        <Field
          label="Current password"
          name="current_password"
          type="password"
          autoComplete="current-password"
          value={current}
          onInput={(e) => setCurrent(e.currentTarget.value)}
          error={error as ApiError}
        />
        <Field
          label="New password"
          name="new_password"
          type="password"
          autoComplete="new-password"
          value={next}
          onInput={(e) => setNext(e.currentTarget.value)}
          error={error as ApiError}
        />
        <ErrorBox error={error} fields={['current_password', 'new_password']} />
        {done && (
          <p class="notice" role="status">
            Password changed. Your other sessions were signed out.
          </p>
        )}
        <ActionButton kind="primary" onAction={run}>
          Change password
        </ActionButton>
      </form>
    </section>
  );
}
