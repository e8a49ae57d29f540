import { api, ApiError, query } from './api';

/**
 * A Server-Sent Events stream of the API (contract 7.4) opened with a single-use ticket, since
 * EventSource cannot send headers. The browser's own reconnection would present the spent ticket
 * again, so every drop closes the EventSource and this opens a new one with a new ticket and
 * `?after=` the last event id received: nothing is lost across a reconnect.
 */
export type StreamStatus = 'connecting' | 'live' | 'reconnecting' | 'stopped';

export interface LiveStreamOptions {
  /** Under /api/v1, e.g. `/realtime/stream`. */
  path: string;
  params?: Record<string, string | number | undefined | Array<string | number>>;
  /** The `event:` names to listen to. */
  events: string[];
  onEvent: (type: string, data: unknown, id: string) => void;
  onStatus?: (status: StreamStatus, detail?: string) => void;
  /** Resume after this event id (e.g. the newest event a page already shows). */
  after?: string;
}

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

export interface LiveStream {
  close(): void;
  readonly lastEventId: string | undefined;
}

export function openLiveStream(options: LiveStreamOptions): LiveStream {
  let lastEventId = options.after;
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let retryMs = FIRST_RETRY_MS;
  const status = (s: StreamStatus, detail?: string) => options.onStatus?.(s, detail);

  const reconnect = (detail: string) => {
    source?.close();
    source = null;
    if (closed) return;
    status('reconnecting', detail);
    timer = setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  };

  async function connect(): Promise<void> {
    if (closed) return;
    let ticket: string;
    try {
      ticket = (await api.post<{ ticket: string }>('/auth/stream_tickets')).ticket;
    } catch (e) {
      // A 401 ends the session (the page goes back to the login form): nothing to retry.
      if (e instanceof ApiError && (e.status === 401 || e.status === 403)) {
        closed = true;
        status('stopped', e.message);
      } else reconnect(e instanceof Error ? e.message : String(e));
      return;
    }
    if (closed) return;
    const es = new EventSource(`/api/v1${options.path}${query({ ...options.params, after: lastEventId, ticket })}`);
    source = es;
    es.onopen = () => {
      retryMs = FIRST_RETRY_MS;
      status('live');
    };
    for (const type of options.events) {
      es.addEventListener(type, (e) => {
        const message = e as MessageEvent<string>;
        if (message.lastEventId) lastEventId = message.lastEventId;
        let data: unknown;
        try {
          data = JSON.parse(message.data);
        } catch {
          return;
        }
        options.onEvent(type, data, message.lastEventId);
      });
    }
    // The server ends a stream with `event: close` (shutdown, too slow, credentials revoked): come back with a new ticket.
    es.addEventListener('close', (e) => {
      let reason = 'closed by the server';
      try {
        reason = (JSON.parse((e as MessageEvent<string>).data) as { reason?: string }).reason ?? reason;
      } catch {
        // keep the generic reason
      }
      reconnect(reason);
    });
    es.onerror = () => {
      if (source === es) reconnect('connection lost');
    };
  }

  status('connecting');
  void connect();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      source?.close();
      source = null;
      status('stopped');
    },
    get lastEventId() {
      return lastEventId;
    },
  };
}
