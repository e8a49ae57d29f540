import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';

// OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): argon2 runs on libuv's thread pool,
// so a login costs no event-loop time, and two cores stay free for other requests.
const HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

import { MAX_PASSWORD_LENGTH } from '../config/password-policy';
export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordPolicyErrors } from '../config/password-policy';

export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * Runs at most `limit` tasks at a time, the others wait their turn. Password hashing is
 * CPU-bound on libuv's threads: unbounded, a burst of logins would take every core from
 * the event loop and stall all other requests; bounded, only logins wait.
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      return await task();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }
}

@Injectable()
export class PasswordHasher {
  // Verifying unknown e-mails against a real hash keeps their answer as slow as a wrong password's.
  private dummyHash: Promise<string> | undefined;
  // Half the cores at most, so the event loop always keeps one.
  private readonly limit = new ConcurrencyLimit(Math.max(1, Math.floor(availableParallelism() / 2)));

  hash(password: string): Promise<string> {
    return this.limit.run(() => argon2.hash(password, HASH_OPTIONS));
  }

  async verify(hash: string | undefined, password: string): Promise<boolean> {
    if (password.length > MAX_PASSWORD_LENGTH) return false;
    const target = hash ?? (await (this.dummyHash ??= this.hash(randomBytes(32).toString('hex'))));
    try {
      const matches = await this.limit.run(() => argon2.verify(target, password));
      return matches && hash !== undefined;
    } catch {
      return false;
    }
  }
}
