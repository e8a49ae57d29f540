import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** What a change of a user takes away from the credentials issued to it. */
export interface CredentialChange {
  /** Its password changed: the sessions opened with the old one end too. */
  passwordSessions: boolean;
}

export type CredentialChangeHandler = (manager: EntityManager, userId: string, change: CredentialChange) => Promise<void>;

/**
 * A user's e-mail, role, building restriction or password changed, or it was deleted, in the
 * transaction of that write: whoever issued credentials to it (auth) revokes them there, so
 * that this module knows nothing of how credentials are kept.
 */
@Injectable()
export class UserCredentialHooks {
  private readonly handlers: CredentialChangeHandler[] = [];

  register(handler: CredentialChangeHandler): void {
    this.handlers.push(handler);
  }

  async changed(manager: EntityManager, userId: string, change: CredentialChange): Promise<void> {
    for (const handler of this.handlers) await handler(manager, userId, change);
  }
}
