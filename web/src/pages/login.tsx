import { useState } from 'preact/hooks';
import { ApiError } from '../api';
import { ActionButton, ErrorBox, Field, submitWith } from '../components/ui';
import { logIn, Session } from '../session';

export function LoginPage({ onLoggedIn, notice }: { onLoggedIn: (s: Session) => void; notice?: string }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);

  async function submit() {
    setError(null);
    try {
      onLoggedIn(await logIn(email.trim(), password));
    } catch (e) {
      setError(e instanceof ApiError && e.status === 401 ? new ApiError(401, e.code, 'Wrong e-mail or password.') : e);
    }
  }

  return (
    <main class="login">
      <form class="card" onSubmit={submitWith(submit)}>
        <h1>Cartograph</h1>
        {notice && (
          <p class="notice" role="status">
            {notice}
          </p>
        )}
        <Field label="E-mail" name="email" type="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} error={error as ApiError} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
          error={error as ApiError}
        />
        <ErrorBox error={error} fields={['email', 'password']} />
        <SubmitButton label="Log in" onSubmit={submit} />
      </form>
    </main>
  );
}

/** A submit button with progress; Enter in the form submits through the form's onSubmit. */
function SubmitButton({ label, onSubmit }: { label: string; onSubmit: () => Promise<void> }) {
  return (
    <ActionButton kind="primary" onAction={onSubmit}>
      {label}
    </ActionButton>
  );
}
