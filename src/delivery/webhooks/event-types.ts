/** The event types of contract 7.3 a webhook can subscribe to. */
export const WEBHOOK_EVENT_TYPES = ['geofence.enter', 'geofence.exit', 'geofence.dwell'] as const;
/** What `POST /webhooks/{id}/test` sends: never produced by the engine, always delivered. */
export const TEST_EVENT_TYPE = 'webhook.test';
