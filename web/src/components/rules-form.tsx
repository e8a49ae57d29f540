import { useEffect, useState } from 'preact/hooks';
import { ENTER_WHEN, EXIT_WHEN, type GeofenceRules, type RuleName } from '../../../src/geofencing/engine/rules';
import { api, ApiError, request } from '../api';
import { ActionButton, ErrorBox, Field, Loading, useAction, useLoad } from './ui';

type Rules = GeofenceRules & { overrides: Partial<GeofenceRules> };

const NUMBER_RULES: Array<{ name: RuleName; label: string; step: string; hint: string }> = [
  { name: 'min_dwell_seconds', label: 'Enter after (s)', step: '1', hint: 'Inside this long before the enter fires' },
  { name: 'exit_grace_seconds', label: 'Exit grace (s)', step: '1', hint: 'A return within this keeps the same visit' },
  { name: 'dwell_seconds', label: 'Dwell event after (s)', step: '1', hint: '0: no dwell events' },
  { name: 'cooldown_seconds', label: 'Cooldown (s)', step: '1', hint: 'No new enter this soon after an exit' },
  { name: 'stale_after_seconds', label: 'Exit when silent for (s)', step: '1', hint: 'No fix this long: exit with reason timeout' },
  { name: 'max_accuracy_m', label: 'Ignore fixes worse than (m)', step: 'any', hint: 'Shown on the map, never change a state' },
  { name: 'buffer_m', label: 'Exit buffer (m)', step: 'any', hint: 'How far past the edge counts as out' },
  { name: 'accuracy_factor', label: 'Accuracy factor', step: 'any', hint: 'r = factor × accuracy' },
];

const ENTER_LABELS: Record<string, string> = {
  center: 'its centre is inside',
  contains: 'its accuracy circle is fully inside',
  intersects: 'its accuracy circle touches the fence',
};
const EXIT_LABELS: Record<string, string> = {
  center_out: 'its centre is out by the buffer',
  not_intersects: 'its circle is fully out, plus the buffer',
  not_contains: 'its circle is no longer fully inside',
};

/**
 * Geofencing rules: one fence's (`/geofences/{id}/rules`, what it sets itself is marked) or the
 * organization's defaults (`/geofencing/settings`). A save sends only the fields changed here;
 * read-only shows them without a save.
 */
export function RulesForm({ path, scope, readOnly = false }: { path: string; scope: 'fence' | 'organization'; readOnly?: boolean }) {
  const [rules, setRules] = useState<Rules | null>(null);
  const [draft, setDraft] = useState<Partial<Record<RuleName, string | boolean>>>({});
  const [saved, setSaved] = useState(false);
  const load = useLoad((s) => api.get<Rules>(path, s), [path]);
  useEffect(() => {
    if (load.data) {
      setRules(load.data);
      setDraft({});
    }
  }, [load.data]);
  const save = useAction(async () => {
    setSaved(false);
    const body: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(draft))
      body[name] = typeof value === 'string' && !['enter_when', 'exit_when'].includes(name) ? (value.trim() === '' ? null : Number(value)) : value;
    const r = await request<Rules>(path, { method: 'PUT', body });
    setRules(r.body);
    setDraft({});
    setSaved(true);
  });
  const reset = useAction(async () => {
    setSaved(false);
    await api.del(path);
    setRules(await api.get<Rules>(path));
    setDraft({});
    setSaved(true);
  });
  if (load.error) return <ErrorBox error={load.error} onRetry={load.reload} />;
  if (!rules) return <Loading what="rules" />;
  const value = (name: RuleName) => (name in draft ? draft[name] : rules[name]);
  const set = (name: RuleName, v: string | boolean) => {
    setSaved(false);
    setDraft({ ...draft, [name]: v });
  };
  const own = (name: RuleName) => (name in rules.overrides ? (scope === 'fence' ? ' (this fence)' : ' (changed)') : '');
  const error = (save.error ?? reset.error) as ApiError | null;
  return (
    <form
      class="rules"
      aria-label="Rules"
      onSubmit={(e) => {
        e.preventDefault();
        if (!readOnly) void save.run();
      }}
    >
      <fieldset disabled={readOnly} class="plain-fieldset">
        {scope === 'fence' ? (
          <>
            <h3>Rules</h3>
            <p class="muted">
              Values marked “this fence” are its own; the others follow <a href="/settings">the organization's settings</a>.
            </p>
          </>
        ) : (
          <p class="muted">Every geofence follows these unless it sets a value of its own (in its panel on the floor map). Values marked “changed” differ from the defaults.</p>
        )}
        <label class="checkbox">
          <input type="checkbox" checked={value('enabled') as boolean} onChange={(e) => set('enabled', e.currentTarget.checked)} />
          Fires events{own('enabled')}
        </label>
        <label class="checkbox">
          <input type="checkbox" checked={value('initial_trigger') as boolean} onChange={(e) => set('initial_trigger', e.currentTarget.checked)} />A device already inside a new (or
          restored) fence enters at once{own('initial_trigger')}
        </label>
        <Field label={`Enters when${own('enter_when')}`} name="enter_when" error={error}>
          <select name="enter_when" aria-label="Enters when" value={value('enter_when') as string} onChange={(e) => set('enter_when', e.currentTarget.value)}>
            {ENTER_WHEN.map((v) => (
              <option value={v}>{ENTER_LABELS[v]}</option>
            ))}
          </select>
        </Field>
        <Field label={`Exits when${own('exit_when')}`} name="exit_when" error={error}>
          <select name="exit_when" aria-label="Exits when" value={value('exit_when') as string} onChange={(e) => set('exit_when', e.currentTarget.value)}>
            {EXIT_WHEN.map((v) => (
              <option value={v}>{EXIT_LABELS[v]}</option>
            ))}
          </select>
        </Field>
        <div class="rules-grid">
          {NUMBER_RULES.map((r) => (
            <Field
              label={`${r.label}${own(r.name)}`}
              name={r.name}
              type="number"
              step={r.step}
              hint={r.hint}
              error={error}
              value={String(value(r.name))}
              onInput={(e) => set(r.name, e.currentTarget.value)}
            />
          ))}
        </div>
        <ErrorBox error={error} fields={['enter_when', 'exit_when', ...NUMBER_RULES.map((r) => r.name)]} />
        {saved && (
          <p class="notice" role="status">
            Rules saved.
          </p>
        )}
        {!readOnly && (
          <div class="row">
            <ActionButton kind="primary" onAction={save.run}>
              Save rules
            </ActionButton>
            {scope === 'fence' && Object.keys(rules.overrides).length > 0 && <ActionButton onAction={reset.run}>Use the organization's rules</ActionButton>}
          </div>
        )}
      </fieldset>
    </form>
  );
}
