import { AsyncLocalStorage } from 'node:async_hooks';
import { EntityManager } from 'typeorm';

/**
 * The transaction the current call runs in, if any (set by `TransactionRunner`).
 *
 * Hand-written reads (`PreparedQueries`) made while a transaction is open must run on that
 * transaction's connection: taken from the pool instead, ten concurrent transactions each
 * waiting for an eleventh connection starve a pool of ten until its timeout, and the reads
 * would not see the transaction's own writes either.
 */
export const ambientTransaction = new AsyncLocalStorage<EntityManager>();
