import { Client } from 'pg';
import { ADVISORY_LOCKS } from './advisory-locks';

/** Servers are running on the database: what must not run beside them is refused. */
export class InstancesLive extends Error {
  constructor(
    readonly count: number,
    readonly clients: string[],
  ) {
    super(`${count} Cartograph instance${count === 1 ? ' is' : 's are'} running on this database${clients.length > 0 ? ` (connected from ${clients.join(', ')})` : ''}`);
    this.name = 'InstancesLive';
  }
}

/**
 * Takes the PostgreSQL database away from servers for one operation (`migrate down`,
 * `restore`): the migrations lock (no instance migrates meanwhile) and the live-instances
 * lock exclusively, which every running instance holds shared on its listening connection;
 * held until `release`. Throws InstancesLive, naming where they connect from, when any runs.
 * The locks are session locks: a crashed instance's go with its connection.
 */
export async function excludeLiveInstances(url: string): Promise<{ release(): Promise<void> }> {
  const client = new Client({ connectionString: url, application_name: 'cartograph-cli' });
  await client.connect();
  try {
    const migrating = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [ADVISORY_LOCKS.migrations]);
    if (!migrating.rows[0].locked) throw new InstancesLive(1, ['an instance is applying migrations']);
    const alone = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [ADVISORY_LOCKS.liveInstances]);
    if (!alone.rows[0].locked) {
      const holders = await client.query<{ client: string | null }>(
        `SELECT host(a.client_addr) AS client FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE l.locktype = 'advisory' AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND l.classid = 0 AND l.objid = $1 AND l.objsubid = 1 AND l.granted AND l.pid <> pg_backend_pid()`,
        [ADVISORY_LOCKS.liveInstances],
      );
      const clients = [...new Set(holders.rows.map((row) => row.client ?? 'a local socket'))];
      throw new InstancesLive(Math.max(1, holders.rows.length), clients);
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return { release: () => client.end() };
}
