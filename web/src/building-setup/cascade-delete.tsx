import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { ConfirmDialog } from '../components/ui';

/**
 * Deletes a building or a floor as the API does: first without cascade, so an empty one goes at
 * once; when the API answers that things still belong to it, that answer (what exactly) is
 * shown and a second confirmation deletes them with it.
 */
export function CascadeDelete(props: { open: boolean; title: string; what: string; path: string; onClose: () => void; onDeleted: () => void }) {
  const [holds, setHolds] = useState<string | null>(null);
  useEffect(() => setHolds(null), [props.open]);
  return (
    <ConfirmDialog
      title={props.title}
      open={props.open}
      confirmLabel={holds ? 'Delete it with all of them' : 'Delete'}
      onClose={props.onClose}
      onConfirm={async () => {
        try {
          await api.del(`${props.path}?cascade=${holds ? 'true' : 'false'}`);
        } catch (e) {
          if (e instanceof ApiError && e.status === 409 && !holds) {
            setHolds(e.message.replace(/; delete them first or pass cascade=true$/, ''));
            return;
          }
          throw e;
        }
        props.onDeleted();
      }}
    >
      {holds ? (
        <p data-testid="cascade-warning">
          <strong>{holds}.</strong> Deleting {props.what} deletes them too: its POIs and path nodes are gone for good; its geofences are kept as deleted (they can be restored from
          the floor map while their floor exists).
        </p>
      ) : (
        <p>Delete {props.what}? This cannot be undone.</p>
      )}
    </ConfirmDialog>
  );
}
