import { randomUUID } from 'node:crypto';
import { Role } from '../../src/access/roles';
import { TransactionRunner } from '../../src/database/transactions';
import { UsersService } from '../../src/users/users.service';
import { uniqueEmail } from './auth';
import { TestApp } from './test-app';

export interface TestUser {
  id: string;
  email: string;
  password: string;
}

/** A user of an existing organization, stored through the service (the users API comes later). */
export async function createUser(t: TestApp, organizationId: string, role: Role = Role.User): Promise<TestUser> {
  const users = t.app.get(UsersService);
  const password = `pw-${randomUUID()}`;
  const user = await users.prepare({ organizationId, email: uniqueEmail(role.toLowerCase()), password, role });
  await t.app.get(TransactionRunner).run((manager) => users.insert(manager, user));
  return { id: user.id, email: user.email, password };
}
