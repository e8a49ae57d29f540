import { useState } from 'preact/hooks';
import { api, ApiError, request } from '../api';
import { FenceDetails } from '../components/fence-details';
import { ActionButton, ConfirmDialog, ErrorBox, Field, submitWith, useAction } from '../components/ui';
import type { CustomField, Geofence } from '../model';

/** A fence as opened, with the ETag it was read with: a save is refused if someone changed it meanwhile. */
export interface Selected {
  fence: Geofence;
  etag: string | null;
}

/**
 * The chosen fence: its name, code and custom fields, its shape (corners dragged on the map),
 * deleting it (asked first, undone from the notice or the deleted list), and what it is doing now.
 */
export function FencePanel(props: {
  selected: Selected;
  editing: boolean;
  detailsKey: number;
  occupants: number;
  onEdit: () => Promise<void>;
  onCancelEdit: () => void;
  onSaveEdit: () => Promise<void>;
  onSaved: (selected: Selected) => Promise<void>;
  onDeleted: () => Promise<void>;
  onReload: () => Promise<void>;
  onClose: () => void;
}) {
  // Each button's failure is shown in this panel.
  const { error, run: attempt } = useAction((action: () => Promise<void>) => action());
  const guard = (action: () => Promise<void>) => () => attempt(action);
  const [editingDetails, setEditingDetails] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const { fence, etag } = props.selected;
  const stale = error instanceof ApiError && (error.status === 409 || error.status === 412);
  return (
    <div class="fence-panel" data-testid="fence-panel">
      <div class="section-head">
        <h2>{fence.name}</h2>
        <button type="button" class="btn plain close" aria-label="Close the fence panel" onClick={props.onClose}>
          ×
        </button>
      </div>
      <p class="muted">
        {fence.code ? `Code ${fence.code} · ` : ''}
        {fence.geometric.length - 1} corners
        {fence.custom_fields?.length ? ` · ${fence.custom_fields.map((f) => `${f.key}: ${f.value}`).join(', ')}` : ''}
      </p>
      {stale ? (
        <div class="error-box" role="alert" data-testid="conflict">
          <strong>Someone else changed this geofence after you opened it.</strong> Your change was not saved, so theirs is not lost.
          <div>
            <ActionButton onAction={guard(props.onReload)}>Load their version</ActionButton>
          </div>
        </div>
      ) : (
        <ErrorBox error={error} />
      )}
      {editingDetails ? (
        <FenceDetailsForm
          fence={fence}
          onCancel={() => setEditingDetails(false)}
          onSave={async (body) => {
            const r = await request<Geofence>(`/geofences/${fence.id}`, { method: 'PUT', body, ifMatch: etag ?? undefined });
            setEditingDetails(false);
            await props.onSaved({ fence: r.body, etag: r.etag });
          }}
        />
      ) : !props.editing ? (
        <div class="row">
          <button type="button" class="btn plain" onClick={() => setEditingDetails(true)}>
            Edit details
          </button>
          <ActionButton onAction={guard(props.onEdit)}>Move vertices</ActionButton>
          <button type="button" class="btn danger" onClick={() => setConfirmDelete(true)}>
            Delete
          </button>
        </div>
      ) : (
        <div class="row">
          <ActionButton kind="primary" onAction={guard(props.onSaveEdit)}>
            Save shape
          </ActionButton>
          <button type="button" class="btn plain" onClick={props.onCancelEdit}>
            Cancel
          </button>
        </div>
      )}
      <ConfirmDialog
        title="Delete geofence"
        open={confirmDelete}
        confirmLabel="Delete geofence"
        onClose={() => setConfirmDelete(false)}
        onConfirm={async () => {
          await api.del(`/geofences/${fence.id}`, etag ?? undefined);
          setConfirmDelete(false);
          await props.onDeleted();
        }}
      >
        <p>
          Delete <strong>{fence.name}</strong>?{' '}
          {props.occupants > 0
            ? `The ${props.occupants === 1 ? 'device' : `${props.occupants} devices`} inside leave it now (an exit event each, reason: the fence was deleted).`
            : 'Nobody is inside it now.'}{' '}
          Webhooks stop getting its events. You can restore it afterwards.
        </p>
      </ConfirmDialog>
      <FenceDetails fenceId={fence.id} refreshKey={props.detailsKey} />
    </div>
  );
}

/** Name, code and custom fields of a fence (sent with the ETag it was opened with). */
function FenceDetailsForm({
  fence,
  onSave,
  onCancel,
}: {
  fence: Geofence;
  onSave: (body: { name: string; code: string; custom_fields: CustomField[] }) => Promise<void>;
  onCancel: () => void;
}) {
  const [name, setName] = useState(fence.name);
  const [code, setCode] = useState(fence.code ?? '');
  const [fields, setFields] = useState<CustomField[]>(fence.custom_fields?.length ? fence.custom_fields : []);
  const { error, run } = useAction(() => onSave({ name, code, custom_fields: fields.filter((f) => f.key.trim() !== '') }));
  const setField = (index: number, patch: Partial<CustomField>) => setFields(fields.map((f, i) => (i === index ? { ...f, ...patch } : f)));
  return (
    <form class="fence-details-form" aria-label="Geofence details" onSubmit={submitWith(run)}>
      <Field label="Name" name="name" value={name} onInput={(e) => setName(e.currentTarget.value)} error={error as ApiError} />
      <Field label="Code" name="code" value={code} onInput={(e) => setCode(e.currentTarget.value)} error={error as ApiError} hint="Your own reference, e.g. the room number" />
      <fieldset>
        <legend>Custom fields</legend>
        {fields.map((f, i) => (
          <div class="row custom-field">
            <Field label={`Key ${i + 1}`} name={`custom_fields[${i}].key`} value={f.key} onInput={(e) => setField(i, { key: e.currentTarget.value })} error={error as ApiError} />
            <Field
              label={`Value ${i + 1}`}
              name={`custom_fields[${i}].value`}
              value={f.value}
              onInput={(e) => setField(i, { value: e.currentTarget.value })}
              error={error as ApiError}
            />
            <button type="button" class="btn plain" aria-label={`Remove field ${i + 1}`} onClick={() => setFields(fields.filter((_, j) => j !== i))}>
              Remove
            </button>
          </div>
        ))}
        <button type="button" class="btn plain" onClick={() => setFields([...fields, { key: '', value: '' }])}>
          Add a field
        </button>
      </fieldset>
      <ErrorBox error={error} fields={['name', 'code']} />
      <div class="row">
        <ActionButton kind="primary" onAction={run}>
          Save details
        </ActionButton>
        <button type="button" class="btn plain" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
