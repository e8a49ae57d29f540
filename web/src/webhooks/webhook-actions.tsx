import { api, request } from '../api';
import { ActionButton } from '../components/ui';
import type { Webhook } from './webhook-form';

/**
 * What an administrator does to a webhook, on its row of the list: edit it, send it a test
 * event, disable or enable it, rotate its secret, delete it. Each reports back to the page,
 * which shows the result (or the failure) above the list.
 */
export function WebhookActions(props: {
  hook: Webhook;
  onEdit: () => void;
  onDelete: () => void;
  onChanged: (hook: Webhook) => void;
  onTested: () => void;
  onSecret: (secret: string) => void;
  attempt: (action: () => Promise<void>) => Promise<void>;
}) {
  const { hook, attempt } = props;
  return (
    <>
      <button type="button" class="btn plain" onClick={props.onEdit}>
        Edit
      </button>
      <ActionButton
        onAction={() =>
          attempt(async () => {
            await request(`/webhooks/${hook.id}/test`, { method: 'POST' });
            props.onTested();
          })
        }
      >
        Send a test event
      </ActionButton>
      <ActionButton onAction={() => attempt(async () => props.onChanged((await api.put<Webhook>(`/webhooks/${hook.id}`, { enabled: !hook.enabled })).body))}>
        {hook.enabled ? 'Disable' : 'Enable'}
      </ActionButton>
      <ActionButton onAction={() => attempt(async () => props.onSecret((await api.post<{ secret: string }>(`/webhooks/${hook.id}/rotate_secret`)).secret))}>
        Rotate secret
      </ActionButton>
      <button type="button" class="btn danger" onClick={props.onDelete}>
        Delete
      </button>
    </>
  );
}
