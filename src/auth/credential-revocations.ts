import { EntityManager, IsNull } from 'typeorm';
import { notifyWithoutBus } from '../database/notification-bus';
import { AuthSession } from './sessions/auth-session.entity';

/** Every instance listens here for "credentials of this user changed": the credential cache, the streams. */
export const CREDENTIAL_REVOCATIONS_CHANNEL = 'credential_revocations';

/** The notice on CREDENTIAL_REVOCATIONS_CHANNEL, whoever sends it. */
export interface CredentialRevocationMessage {
  user: string;
}

export const credentialRevocationMessage = (userId: string): CredentialRevocationMessage => ({ user: userId });

/** Tells every instance, in `manager`'s transaction, that `userId`'s credentials changed. */
export type RevocationPublisher = (manager: EntityManager, userId: string) => Promise<void>;

/**
 * The publisher of a process without the application (the CLI): NOTIFY in the transaction,
 * so every instance on the PostgreSQL database hears it on commit. On SQLite there is no
 * channel between processes; a server running beside the CLI drops what it cached within
 * CREDENTIAL_CACHE_MAX_AGE_SECONDS (docs/decisions.md, "Password reset beside a running server").
 */
export const notifyInTransaction: RevocationPublisher = (manager, userId) => notifyWithoutBus(manager, CREDENTIAL_REVOCATIONS_CHANNEL, credentialRevocationMessage(userId));

/**
 * A user's credentials stop standing for what changed, in the transaction of the change: a
 * password change (`passwordSessions`) ends the sessions opened with the old password (API
 * keys are credentials of their own and stay), and every instance drops what it cached of
 * the user and ends its streams. The API (through the credential cache) and the CLI's
 * password reset both revoke here.
 */
export async function revokeUserCredentials(manager: EntityManager, userId: string, change: { passwordSessions: boolean }, publish: RevocationPublisher): Promise<void> {
  if (change.passwordSessions) await manager.update(AuthSession, { userId, apiKeyId: IsNull(), revokedAt: IsNull() }, { revokedAt: new Date() });
  await publish(manager, userId);
}
