import { LRUCache } from 'lru-cache';
import { Principal } from '../access/principal';

export interface CredentialCacheOptions {
  /** Safety net: an entry is reused at most this long, whatever its credential's expiry. 0 disables the cache. */
  maxAgeMs: number;
  maxEntries: number;
  /** Bound on the estimated memory of keys and principals. */
  maxBytes: number;
}

export interface CredentialCacheStats {
  hits: number;
  misses: number;
  /** Entries stored, and dropped for room (evictions) or by revocations (invalidations). */
  stores: number;
  evictions: number;
  invalidations: number;
  /** Stores refused because a revocation happened while the credential was being verified. */
  racesLost: number;
  entries: number;
  bytes: number;
}

/** Taken before verifying a credential; a store with a ticket older than a revocation is refused. */
export type CacheTicket = number;

interface Entry {
  principal: Principal;
  /** Epoch milliseconds after which the entry is not served. */
  expiresAt: number;
}

/** A rough size of an entry: UTF-16 strings, object overhead, the building list. */
function estimateBytes(key: string, principal: Principal): number {
  return 2 * (key.length + principal.email.length) + 400 + 8 * (principal.buildingIds?.length ?? 0);
}

/**
 * What a credential proved, per process: the principal of a verified access token (keyed by
 * the token, until its expiry) or of an API key (keyed by its SHA-256), each for at most
 * `maxAgeMs`. The strategy stays the authority: only what it returned is stored, and a miss
 * goes through it. Revocations drop every entry of a user; a revocation that lands while a
 * credential is being verified makes the store of that verification a no-op (see tickets),
 * so a principal read before a revocation is never cached after it.
 */
export class CredentialCache {
  private readonly lru: LRUCache<string, Entry> | undefined;
  /** Cache keys per user, for revocations. Kept in step by `dispose`. */
  private readonly byUser = new Map<string, Set<string>>();
  private epoch = 0;
  private counters = { hits: 0, misses: 0, stores: 0, evictions: 0, invalidations: 0, racesLost: 0 };

  constructor(
    private readonly options: CredentialCacheOptions,
    private readonly now: () => number = Date.now,
  ) {
    if (options.maxAgeMs <= 0) return;
    this.lru = new LRUCache<string, Entry>({
      max: options.maxEntries,
      maxSize: options.maxBytes,
      sizeCalculation: (entry, key) => estimateBytes(key, entry.principal),
      dispose: (entry, key, reason) => {
        this.unindex(entry.principal.userId, key);
        if (reason === 'evict') this.counters.evictions++;
      },
    });
  }

  get enabled(): boolean {
    return this.lru !== undefined;
  }

  /** A copy of the cached principal (callers decorate it per request), or undefined. */
  get(key: string): Principal | undefined {
    if (!this.lru) return undefined;
    const entry = this.lru.get(key);
    if (!entry || entry.expiresAt <= this.now()) {
      if (entry) this.lru.delete(key);
      this.counters.misses++;
      return undefined;
    }
    this.counters.hits++;
    return { ...entry.principal };
  }

  ticket(): CacheTicket {
    return this.epoch;
  }

  /**
   * Stores what the strategy returned for `key`, valid until `expiresAt` (epoch ms; null for
   * no expiry of its own), unless a revocation happened since `ticket` was taken.
   */
  set(key: string, principal: Principal, expiresAt: number | null, ticket: CacheTicket): boolean {
    if (!this.lru) return false;
    if (ticket !== this.epoch) {
      this.counters.racesLost++;
      return false;
    }
    const now = this.now();
    const until = Math.min(expiresAt ?? Number.POSITIVE_INFINITY, now + this.options.maxAgeMs);
    if (until <= now) return false;
    const { ip: _ip, ...stored } = principal;
    this.lru.set(key, { principal: stored, expiresAt: until });
    if (!this.lru.has(key)) return false; // larger than the whole memory bound
    let keys = this.byUser.get(principal.userId);
    if (!keys) this.byUser.set(principal.userId, (keys = new Set()));
    keys.add(key);
    this.counters.stores++;
    return true;
  }

  /** Every credential of the user must be verified again. */
  invalidateUser(userId: string): void {
    this.epoch++;
    const keys = this.byUser.get(userId);
    if (!keys || !this.lru) return;
    for (const key of [...keys]) {
      if (this.lru.delete(key)) this.counters.invalidations++;
    }
    this.byUser.delete(userId);
  }

  /** Everything must be verified again (a notification may have been missed). */
  clear(): void {
    this.epoch++;
    if (!this.lru) return;
    this.counters.invalidations += this.lru.size;
    this.lru.clear();
    this.byUser.clear();
  }

  stats(): CredentialCacheStats {
    return { ...this.counters, entries: this.lru?.size ?? 0, bytes: this.lru?.calculatedSize ?? 0 };
  }

  private unindex(userId: string, key: string): void {
    const keys = this.byUser.get(userId);
    if (!keys) return;
    keys.delete(key);
    if (keys.size === 0) this.byUser.delete(userId);
  }
}
