import { AsyncLocalStorage } from 'node:async_hooks';
import { EntityManager } from 'typeorm';

/**
 * Work to add at the end of every transaction started within a call to
 * `transactionEpilogue.run(...)`, committed or rolled back with it. The idempotency
 * interceptor uses it to record, atomically with a write, that the write happened.
 */
export const transactionEpilogue = new AsyncLocalStorage<(manager: EntityManager) => Promise<void>>();
