import { cloneElement, isValidElement, type ComponentChildren, type PartialInputHTMLAttributes } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';

/** A labelled input whose error (from the API, by field name) is shown right under it. */
export function Field(
  props: {
    label: string;
    name: string;
    error?: ApiError | null;
    hint?: string;
    children?: ComponentChildren;
  } & Omit<PartialInputHTMLAttributes<HTMLInputElement>, 'name' | 'label' | 'children'>,
) {
  const { label, name, error, hint, children, ...input } = props;
  const id = useId();
  const message = error?.fieldMessage(name);
  return (
    <div class={`field${message ? ' has-error' : ''}`}>
      <label for={id}>{label}</label>
      {children === undefined ? (
        <input id={id} name={name} aria-invalid={message ? 'true' : undefined} aria-describedby={message ? `${id}-error` : undefined} {...(input as Record<string, unknown>)} />
      ) : isValidElement(children) ? (
        // A control of its own (a select): the label and the error point at it too.
        cloneElement(children, { id, 'aria-invalid': message ? 'true' : undefined, 'aria-describedby': message ? `${id}-error` : undefined })
      ) : (
        children
      )}
      {hint && !message && <small class="hint">{hint}</small>}
      {message && (
        <small class="error" id={`${id}-error`} role="alert">
          {message}
        </small>
      )}
    </div>
  );
}

/** What a status without a message of its own means, in words. */
const STATUS_WORDS: Record<number, string> = {
  0: 'The server cannot be reached. Check your connection and try again.',
  403: 'You are not allowed to do this: ask an administrator of your organization.',
  404: 'This no longer exists (someone may have deleted it).',
  409: 'Someone changed this at the same time. Reload it and try again.',
  429: 'Too many requests: wait a moment and try again.',
  500: 'The server failed to answer. Try again; if it keeps failing, tell your administrator.',
  503: 'The server is not ready (its database cannot be reached). Try again in a moment.',
};

/** An error as a person reads it: the API's message when it is about the request, the status in words otherwise. */
export function errorWords(error: unknown): string {
  if (!(error instanceof ApiError)) return String((error as Error)?.message ?? error);
  if (error.status === 0 || error.status >= 500) return STATUS_WORDS[error.status] ?? STATUS_WORDS[500];
  return error.message || STATUS_WORDS[error.status] || `The server answered ${error.status}.`;
}

/**
 * The error of a whole action, in words; field errors are listed when no field shows them.
 * With `onRetry`, a button tries again (every failed read offers one).
 */
export function ErrorBox({ error, fields = [], onRetry }: { error: unknown; fields?: string[]; onRetry?: () => void }) {
  if (!error) return null;
  const retry = onRetry && (
    <button type="button" class="btn plain retry" onClick={onRetry}>
      Try again
    </button>
  );
  if (!(error instanceof ApiError))
    return (
      <div class="error-box" role="alert">
        <strong>{errorWords(error)}</strong> {retry}
      </div>
    );
  const unshown = error.errors.filter((e) => !e.fields || !fields.some((f) => e.fields!.split(',').includes(f)));
  return (
    <div class="error-box" role="alert" data-status={error.status}>
      <strong>{errorWords(error)}</strong>
      {error.status === 429 && error.retryAfter && <span> Try again in {error.retryAfter} s.</span>}
      {unshown.length > 0 && (
        <ul>
          {unshown.map((e) => (
            <li>{e.fields ? `${e.fields}: ${e.message}` : e.message}</li>
          ))}
        </ul>
      )}
      {retry}
    </div>
  );
}

/**
 * Asks before a change that cannot be taken back lightly: what will happen, in words, and
 * one button that does it (its failure is shown here, with the dialog still open).
 */
export function ConfirmDialog(props: { title: string; open: boolean; confirmLabel: string; onConfirm: () => Promise<void>; onClose: () => void; children: ComponentChildren }) {
  const { error, run } = useAction(props.onConfirm);
  return (
    <Dialog title={props.title} open={props.open} onClose={props.onClose}>
      <div class="confirm">
        {props.children}
        <ErrorBox error={error} />
        <div class="row">
          <ActionButton kind="danger" onAction={run}>
            {props.confirmLabel}
          </ActionButton>
          <button type="button" class="btn plain" onClick={props.onClose}>
            Cancel
          </button>
        </div>
      </div>
    </Dialog>
  );
}

/**
 * A button that shows progress while its action runs and cannot be pressed twice. A primary one
 * is its form's submit button, so Enter in a field presses it (the browser's implicit submission
 * clicks the default button, and does nothing while it is disabled): the action runs here, with
 * the same progress as a click, and the form is never submitted by the browser.
 */
export function ActionButton(props: { onAction: () => Promise<void>; children: ComponentChildren; kind?: 'primary' | 'danger' | 'plain'; type?: 'button' | 'submit' }) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type={props.type ?? (props.kind === 'primary' ? 'submit' : 'button')}
      class={`btn ${props.kind ?? 'plain'}`}
      disabled={busy}
      aria-busy={busy}
      onClick={async (e) => {
        e.preventDefault();
        setBusy(true);
        try {
          await props.onAction();
        } finally {
          setBusy(false);
        }
      }}
    >
      {busy ? <span class="spinner" aria-hidden="true" /> : null}
      {props.children}
    </button>
  );
}

/**
 * A modal dialog on the native <dialog> element: focus moves into it and back, Escape closes
 * it, Tab stays inside (the browser's modal behaviour).
 */
export function Dialog(props: { title: string; open: boolean; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={props.onClose} onCancel={props.onClose}>
      <header>
        <h2 id={titleId}>{props.title}</h2>
        <button type="button" class="btn plain close" aria-label="Close" onClick={props.onClose}>
          ×
        </button>
      </header>
      {props.open && props.children}
    </dialog>
  );
}

/** Copy to the clipboard, with a word of confirmation. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      class="btn plain"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
        } catch {
          // Clipboard access can be refused (plain HTTP, permissions): select the text instead.
          const area = document.createElement('textarea');
          area.value = text;
          document.body.append(area);
          area.select();
          document.execCommand('copy');
          area.remove();
        }
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      }}
    >
      {copied ? 'Copied' : label}
    </button>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" role="status">
      <span class="spinner" aria-hidden="true" /> Loading {what}…
    </p>
  );
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso.replace(/\[.*\]$/, ''));
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

/** Runs a loader on mount and when its keys change; gives data, error and a reload function. */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, keys: unknown[]): { data: T | undefined; error: unknown; reload: () => void } {
  const [state, setState] = useState<{ data?: T; error?: unknown }>({});
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (data) => setState({ data }),
      (error) => {
        if ((error as Error).name !== 'AbortError') setState({ error });
      },
    );
    return () => controller.abort();
  }, [...keys, tick]);
  return { data: state.data, error: state.error, reload: () => setTick((t) => t + 1) };
}

/**
 * An action whose failure is shown next to what caused it: `run` clears the last error, runs
 * the action, and keeps what it threw (an ApiError names its fields) in `error`.
 */
export function useAction<A extends unknown[]>(action: (...args: A) => Promise<void>): { error: unknown; run: (...args: A) => Promise<void>; setError: (e: unknown) => void } {
  const [error, setError] = useState<unknown>(null);
  const run = async (...args: A) => {
    setError(null);
    try {
      await action(...args);
    } catch (e) {
      setError(e);
    }
  };
  return { error, run, setError };
}

/** A form's onSubmit that runs the action instead of navigating. */
export const submitWith = (run: () => Promise<void>) => (event: Event) => {
  event.preventDefault();
  void run();
};
