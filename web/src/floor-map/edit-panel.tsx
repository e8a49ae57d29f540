import { useState } from 'preact/hooks';
import './edit-panel.css';
import type { FloorContext } from './floor-context';
import { FenceFiles } from './fence-files';
import { InfrastructureEditor } from './infrastructure-editor';
import { PathsEditor } from './paths-editor';
import { PoiEditor } from './poi-editor';

const EDITORS = [
  { id: 'pois', label: 'POIs' },
  { id: 'paths', label: 'Paths' },
  { id: 'infrastructure', label: 'Beacons & APs' },
  { id: 'fences', label: 'Geofence files' },
] as const;

/** The editors of what the API serves on a floor; geofences are drawn and changed in the Live view. */
export function EditPanel({ context }: { context: FloorContext }) {
  const [editor, setEditor] = useState<(typeof EDITORS)[number]['id']>('pois');
  return (
    <div class="edit-panel">
      <div class="subtabs" role="group" aria-label="What to edit">
        {EDITORS.map((e) => (
          <button
            type="button"
            class="btn plain"
            aria-pressed={editor === e.id}
            onClick={(event) => {
              setEditor(e.id);
              // In a strip that scrolls, the chosen editor comes into view.
              event.currentTarget.scrollIntoView({ block: 'nearest', inline: 'nearest' });
            }}
          >
            {e.label}
          </button>
        ))}
      </div>
      {editor === 'pois' && <PoiEditor context={context} />}
      {editor === 'paths' && <PathsEditor context={context} />}
      {editor === 'infrastructure' && <InfrastructureEditor context={context} />}
      {editor === 'fences' && <FenceFiles context={context} />}
    </div>
  );
}
