import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Role } from '../access/roles';
import { SqlRunner } from '../database/sql-runner';
import { statement } from '../database/statements';

export interface SessionOwnerRow {
  user_id: string;
  organization_id: string;
  email: string;
  role: Role;
  permission: string;
  api_key_id: string | null;
  key_permission: string | null;
  revoked_at: unknown;
  building_scope: unknown;
}

export interface KeyOwnerRow {
  id: string;
  organization_id: string;
  user_id: string;
  key_hash: string;
  permission: string;
  last_used_at: unknown;
  email: string;
  role: Role;
  building_scope: unknown;
}

const SESSION_OWNER = statement(
  'credential-owners.session',
  `SELECT s."user_id", u."organization_id", u."email", u."role", u."building_scope", s."permission", s."api_key_id", k."permission" AS "key_permission", s."revoked_at"
     FROM "auth_sessions" s
     INNER JOIN "users" u ON u."id" = s."user_id"
     LEFT JOIN "api_keys" k ON k."id" = s."api_key_id"
     WHERE s."id" = :sessionId`,
);
const KEY_BY_HASH = statement(
  'credential-owners.key-by-hash',
  `SELECT k."id", k."organization_id", k."user_id", k."key_hash", k."permission", k."last_used_at", u."email", u."role", u."building_scope"
       FROM "api_keys" k INNER JOIN "users" u ON u."id" = k."user_id"
       WHERE k."key_hash" = :hash`,
);
const KEY_BY_ID = statement(
  'credential-owners.key-by-id',
  `SELECT k."id", k."organization_id", k."user_id", k."key_hash", k."permission", k."last_used_at", u."email", u."role", u."building_scope"
       FROM "api_keys" k INNER JOIN "users" u ON u."id" = k."user_id"
       WHERE k."id" = :id`,
);

/** The owners of credentials (a session's, an API key's) with what they may do: the reads every authenticated request may make, prepared once. */
@Injectable()
export class CredentialOwnersRepository {
  constructor(private readonly sql: SqlRunner) {}

  /** In `manager`'s transaction where given, else prepared on the driver. */
  session(sessionId: string, manager?: EntityManager): Promise<SessionOwnerRow[]> {
    return manager ? this.sql.query<SessionOwnerRow>(manager, SESSION_OWNER, { sessionId }) : this.sql.prepared<SessionOwnerRow>(SESSION_OWNER)({ sessionId });
  }

  keyByHash(hash: string): Promise<KeyOwnerRow[]> {
    return this.sql.prepared<KeyOwnerRow>(KEY_BY_HASH)({ hash });
  }

  keyById(id: string): Promise<KeyOwnerRow[]> {
    return this.sql.prepared<KeyOwnerRow>(KEY_BY_ID)({ id });
  }
}
