import { DataSource } from 'typeorm';
import { AuditEvent } from '../audit/audit-event.entity';
import { PasswordHasher, passwordPolicyErrors } from '../users/passwords';
import { notifyInTransaction, revokeUserCredentials } from '../auth/credential-revocations';
import { ApiError } from '../common/errors/api-error';
import { randomUUID } from 'node:crypto';
import { User } from '../users/user.entity';

/**
 * The operator's way back into a locked-out account (`npm run cli -- reset-password`):
 * sets a new password under the password policy, revokes every session opened with the
 * old one (on PostgreSQL the running instances are told, as for a change through the API:
 * they drop the user's cached credentials and end its streams), and records
 * `user.password_reset` in the organization's audit trail (no actor, no address: it came
 * from the server's console).
 */
export async function resetPassword(dataSource: DataSource, email: string, password: string, hasher = new PasswordHasher()): Promise<User> {
  const user = await dataSource.getRepository(User).findOneBy({ email: email.trim().toLowerCase() });
  if (!user) throw ApiError.notFound('User', email.trim());
  const problems = passwordPolicyErrors(password, user.email);
  if (problems.length > 0) throw ApiError.validation('The password does not meet the password policy', problems);
  const passwordHash = await hasher.hash(password);
  await dataSource.transaction(async (manager) => {
    await manager.update(User, { id: user.id }, { passwordHash, updatedAt: new Date(), version: () => '"version" + 1' });
    await revokeUserCredentials(manager, user.id, { passwordSessions: true }, notifyInTransaction);
    await manager.insert(AuditEvent, {
      id: randomUUID(),
      organizationId: user.organizationId,
      actorId: null,
      action: 'user.password_reset',
      targetType: 'user',
      targetId: user.id,
      ip: null,
      createdAt: new Date(),
    });
  });
  return user;
}
