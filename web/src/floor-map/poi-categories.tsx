import { useState } from 'preact/hooks';
import { api, ApiError, request } from '../api';
import { ActionButton, ConfirmDialog, ErrorBox, Field, submitWith, useAction } from '../components/ui';
import type { PoiCategory } from '../model';

/** The organization's POI categories: name, code, icon (an uploaded image), and deleting one. */
export function PoiCategories({ categories, onChanged }: { categories: PoiCategory[]; onChanged: (list: PoiCategory[]) => void }) {
  const [editing, setEditing] = useState<PoiCategory | 'new' | null>(null);
  const [deleting, setDeleting] = useState<PoiCategory | null>(null);
  const reload = async () => onChanged(await api.get<PoiCategory[]>('/poi_categories'));
  return (
    <div class="poi-categories">
      <ul class="plain-list">
        {categories.map((c) => (
          <li data-category-id={c.id}>
            {c.icon_url ? <img class="icon" src={c.icon_url} alt="" /> : <span class="poi-dot" aria-hidden="true" />} {c.name_en} <span class="muted">({c.code})</span>
            <button type="button" class="btn plain" onClick={() => setEditing(c)} aria-label={`Edit ${c.name_en}`}>
              Edit
            </button>
            <button type="button" class="btn plain" onClick={() => setDeleting(c)} aria-label={`Delete ${c.name_en}`}>
              Delete
            </button>
          </li>
        ))}
      </ul>
      {editing ? (
        <CategoryForm
          initial={editing === 'new' ? undefined : editing}
          onCancel={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null);
            await reload();
          }}
        />
      ) : (
        <button type="button" class="btn primary" onClick={() => setEditing('new')}>
          New category
        </button>
      )}
      <ConfirmDialog
        title="Delete category"
        open={deleting !== null}
        confirmLabel="Delete category"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await api.del(`/poi_categories/${deleting!.id}`);
          setDeleting(null);
          await reload();
        }}
      >
        <p>Delete the category {deleting?.name_en}? The API refuses while POIs use it.</p>
      </ConfirmDialog>
    </div>
  );
}

function CategoryForm({ initial, onSaved, onCancel }: { initial?: PoiCategory; onSaved: () => Promise<void>; onCancel: () => void }) {
  const [name, setName] = useState(initial?.name_en ?? '');
  const [code, setCode] = useState(initial?.code ?? '');
  const [icon, setIcon] = useState<File | null>(null);
  const { error, run } = useAction(async () => {
    const body: Record<string, unknown> = { name_en: name, code };
    if (icon) {
      const form = new FormData();
      form.append('image', icon);
      body.icon = (await request<{ id: string }>('/images', { method: 'POST', rawBody: form })).body.id;
    }
    if (initial) await api.put(`/poi_categories/${initial.id}`, body);
    else await api.post('/poi_categories', body);
    await onSaved();
  });
  const err = error instanceof ApiError ? error : null;
  return (
    <form class="category-form" aria-label={initial ? 'Edit category' : 'New category'} onSubmit={submitWith(run)}>
      <Field label="Name" name="name_en" value={name} onInput={(e) => setName(e.currentTarget.value)} error={err} />
      <Field label="Code" name="code" value={code} onInput={(e) => setCode(e.currentTarget.value)} error={err} hint="Short and unique, e.g. cafe" />
      <label class="upload">
        Icon (PNG or SVG, optional)
        <input type="file" accept="image/png,image/svg+xml,image/webp,image/jpeg" onChange={(e) => setIcon(e.currentTarget.files?.[0] ?? null)} />
      </label>
      <ErrorBox error={error} fields={['name_en', 'code']} />
      <div class="row">
        <ActionButton kind="primary" onAction={run}>
          Save category
        </ActionButton>
        <button type="button" class="btn plain" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
