import { EntityManager } from 'typeorm';

/**
 * Every PostgreSQL advisory lock key Cartograph uses, in one place so that no two pieces of
 * work share one by accident. Locks per device or per organization hash their text instead
 * (`lockXactOnText`, `GeofenceEvaluator.lockDevices`).
 */
export const ADVISORY_LOCKS = {
  /** Session lock: one instance applies migrations at start-up. */
  migrations: 727_401_125,
  /**
   * Session lock, shared: held by every live instance on its listening connection for as long
   * as it runs; `migrate down` and `restore` take it exclusively, so they refuse to run beside one.
   */
  liveInstances: 727_401_126,
  historyPartitions: 727_401_140,
  historyRetention: 727_401_141,
  rollupRetention: 727_401_142,
  eventRetention: 727_401_150,
  /** One instance sweeps due geofence deadlines at a time. */
  deadlineSweep: 0x67656f66, // "geof"
  /** Webhook claims are taken one instance at a time (the per-endpoint in-flight cap counts across instances). */
  webhookClaims: 0x63617274_77686b, // "cart" "whk"
} as const;

/** Waits for a transaction-scoped lock (PostgreSQL only), released when the transaction ends. */
export async function lockXact(manager: EntityManager, key: number): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock($1)', [key]);
}

/** Takes a transaction-scoped lock if no other transaction holds it (PostgreSQL only). */
export async function tryLockXact(manager: EntityManager, key: number): Promise<boolean> {
  const [row] = (await manager.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [key])) as Array<{ locked: boolean }>;
  return row?.locked === true;
}

/** Waits for a transaction-scoped lock named by text (an organization's, say), hashed to a key (PostgreSQL only). */
export async function lockXactOnText(manager: EntityManager, name: string): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [name]);
}
