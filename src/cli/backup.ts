import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, cpSync, createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { MIGRATIONS } from '../../migrations';
import { DatabaseConfig } from '../config/database.config';
import { FIRST_ADMIN_PASSWORD_FILE } from '../config/setup.config';
import { postgresMigrations, sqliteMigrations } from '../database/applied-migrations';
import { DATA_DIR_LOCK_FILE } from '../database/data-dir-lock';
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from '../config/private-files';
import { packageVersion } from '../version/package-version';

// better-sqlite3 ships no types; the calls used here, typed.
interface SqliteConnection {
  backup(destination: string): Promise<unknown>;
  close(): void;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Database = require('better-sqlite3') as new (path: string, options: { readonly: boolean; fileMustExist: boolean }) => SqliteConnection;

export const MANIFEST_FILE = 'BACKUP.json';
const MANIFEST_FORMAT = 1;

export interface BackupResult {
  directory: string;
  /** The SQLite copy, or undefined on PostgreSQL (back it up with pg_dump). */
  database: string | undefined;
  /** Files and folders of DATA_DIR copied beside it (jwt-secret, images/...). */
  files: string[];
  manifest: string;
}

/** BACKUP.json: what restore checks before it copies anything back. */
export interface BackupManifest {
  format: number;
  created_at: string;
  application: { name: 'cartograph'; version: string };
  /** `migration`: the last migration applied to the database when it was copied (null before the first start). */
  database: { kind: DatabaseConfig['kind']; migration: string | null; migrations_applied: number; file: string | null };
  data_dir: string;
  /** Every file of the backup but this manifest, with its size and SHA-256. */
  files: Array<{ path: string; bytes: number; sha256: string }>;
}

/** DATA_DIR entries that are the live database: copied through SQLite's backup API, never as files. */
const SQLITE_FILES = (file: string) => [file, `${file}-wal`, `${file}-shm`, `${file}-journal`].map((path) => basename(path));
/** Never in a backup: the lock (a running process's), and the one-time note of a generated password. */
const NOT_BACKED_UP = new Set([DATA_DIR_LOCK_FILE, `${DATA_DIR_LOCK_FILE}-journal`, FIRST_ADMIN_PASSWORD_FILE]);

/**
 * A consistent copy of a running server's data: the SQLite database through SQLite's
 * online backup (a snapshot that concurrent writes cannot tear; the server keeps serving),
 * then every other entry of DATA_DIR (the generated JWT secret, local images), then
 * BACKUP.json. Everything is owner-only (folders 0700, files 0600: the database holds password
 * and key hashes). Refuses a target that exists and is not empty, so a backup never mixes
 * with an older one.
 */
export async function backupDataDirectory(dataDir: string, database: DatabaseConfig, target: string): Promise<BackupResult> {
  if (existsSync(target) && (!statSync(target).isDirectory() || readdirSync(target).length > 0)) {
    throw new Error(`The backup target ${target} exists and is not an empty directory`);
  }
  // Nothing is ever readable by others, not even between its creation and a chmod.
  const umask = process.umask(0o077);
  try {
    mkdirSync(target, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
    chmodSync(target, PRIVATE_DIRECTORY_MODE);
    let databaseCopy: string | undefined;
    let migrations: string[];
    const skip = new Set(NOT_BACKED_UP);
    if (database.kind === 'sqlite') {
      databaseCopy = join(target, basename(database.path));
      const source = new Database(database.path, { readonly: true, fileMustExist: true });
      try {
        await source.backup(databaseCopy);
      } finally {
        source.close();
      }
      migrations = sqliteMigrations(databaseCopy);
      for (const name of SQLITE_FILES(database.path)) skip.add(name);
    } else {
      migrations = await postgresMigrations(database.url);
    }
    const files: string[] = [];
    for (const entry of readdirSync(dataDir)) {
      if (skip.has(entry)) continue;
      cpSync(join(dataDir, entry), join(target, entry), { recursive: true, preserveTimestamps: true });
      files.push(entry);
    }
    makePrivate(target);
    const manifest: BackupManifest = {
      format: MANIFEST_FORMAT,
      created_at: new Date().toISOString(),
      application: { name: 'cartograph', version: packageVersion() },
      database: { kind: database.kind, migration: migrations.at(-1) ?? null, migrations_applied: migrations.length, file: databaseCopy ? basename(databaseCopy) : null },
      data_dir: dataDir,
      files: await describeFiles(target),
    };
    const manifestPath = join(target, MANIFEST_FILE);
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
    return { directory: target, database: databaseCopy, files, manifest: manifestPath };
  } finally {
    process.umask(umask);
  }
}

/** Folders 0700 and files 0600, all the way down (copies keep their source's modes). */
function makePrivate(directory: string): void {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      chmodSync(path, PRIVATE_DIRECTORY_MODE);
      makePrivate(path);
    } else if (entry.isFile()) {
      chmodSync(path, PRIVATE_FILE_MODE);
    }
  }
}

/** Every regular file under `root` but the manifest, by relative path (always with `/`), sorted. */
async function describeFiles(root: string): Promise<BackupManifest['files']> {
  const found: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && path !== join(root, MANIFEST_FILE)) found.push(relative(root, path).split(sep).join('/'));
    }
  };
  walk(root);
  found.sort();
  const files: BackupManifest['files'] = [];
  for (const path of found) files.push({ path, bytes: statSync(join(root, path)).size, sha256: await sha256Of(join(root, path)) });
  return files;
}

export function sha256Of(path: string): Promise<string> {
  return new Promise((done, fail) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', fail)
      .on('end', () => done(hash.digest('hex')));
  });
}

export const PG_DUMP_HINT =
  'PostgreSQL is backed up with its own tools, online and consistent: pg_dump --format=custom --file=cartograph.dump "$DATABASE_URL" ' +
  '(restore with pg_restore --clean --if-exists --dbname="$DATABASE_URL" cartograph.dump).';

/** A backup that must not be restored, and why. */
export class BackupRefused extends Error {}

export interface RestoreResult {
  data_dir: string;
  files: number;
  backup: { created_at: string; version: string; migration: string | null };
}

/**
 * Reads and checks a backup before anything is copied: its manifest, the kind of database,
 * a migration level this release knows (a backup of a newer release is refused: this one
 * could not read its schema), and every file's size and SHA-256.
 */
export async function checkBackup(source: string, database: DatabaseConfig): Promise<BackupManifest> {
  const manifestPath = join(source, MANIFEST_FILE);
  if (!existsSync(manifestPath)) throw new BackupRefused(`${source} is not a Cartograph backup: it has no ${MANIFEST_FILE}`);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as BackupManifest;
  } catch (error) {
    throw new BackupRefused(`${manifestPath} cannot be read: ${(error as Error).message}`);
  }
  if (manifest.format !== MANIFEST_FORMAT || !Array.isArray(manifest.files) || !manifest.database) {
    throw new BackupRefused(`${manifestPath} is not a backup manifest this release reads (format ${String(manifest.format)}; this release reads format ${MANIFEST_FORMAT})`);
  }
  const made = `made by Cartograph ${manifest.application?.version ?? '(unknown version)'} on ${manifest.created_at}`;
  if (manifest.database.kind !== database.kind) {
    throw new BackupRefused(
      `This backup (${made}) is of a ${manifest.database.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'} server; this configuration uses ${database.kind === 'sqlite' ? 'SQLite (no DATABASE_URL)' : 'PostgreSQL (DATABASE_URL)'}`,
    );
  }
  const known = MIGRATIONS.map((migration) => migration.name);
  if (manifest.database.migration !== null && !known.includes(manifest.database.migration)) {
    throw new BackupRefused(
      `This backup (${made}) is at migration ${manifest.database.migration}, newer than this release knows (its latest is ${known.at(-1)}): ` +
        `restore it with Cartograph ${manifest.application?.version ?? 'of the release that made it'} or later`,
    );
  }
  const damaged: string[] = [];
  for (const file of manifest.files) {
    const path = resolve(source, file.path);
    if (!path.startsWith(`${resolve(source)}${sep}`)) throw new BackupRefused(`${manifestPath} names a file outside the backup: ${file.path}`);
    if (!existsSync(path)) damaged.push(`${file.path} is missing`);
    else if (statSync(path).size !== file.bytes) damaged.push(`${file.path} has ${statSync(path).size} bytes, not ${file.bytes}`);
    else if ((await sha256Of(path)) !== file.sha256) damaged.push(`${file.path} does not match its checksum`);
  }
  if (damaged.length > 0) {
    throw new BackupRefused(
      `This backup (${made}) is damaged or was changed since it was made, and is not restored: ${damaged.slice(0, 5).join('; ')}${damaged.length > 5 ? `; and ${damaged.length - 5} more` : ''}`,
    );
  }
  return manifest;
}

/**
 * Copies a checked backup into DATA_DIR, which must be empty (restore never overwrites: move
 * the old contents aside first). The caller holds the DATA_DIR lock (SQLite) or has made sure
 * no server is live (PostgreSQL). Copies are owner-only and checked again once written.
 */
export async function restoreBackup(source: string, manifest: BackupManifest, dataDir: string): Promise<RestoreResult> {
  const present = existsSync(dataDir) ? readdirSync(dataDir).filter((entry) => !NOT_BACKED_UP.has(entry)) : [];
  if (present.length > 0) {
    throw new BackupRefused(
      `DATA_DIR ${dataDir} is not empty (${present.slice(0, 5).join(', ')}${present.length > 5 ? ', ...' : ''}): restore never overwrites; move its contents aside first`,
    );
  }
  const umask = process.umask(0o077);
  try {
    for (const file of manifest.files) {
      const destination = join(dataDir, ...file.path.split('/'));
      mkdirSync(dirname(destination), { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
      copyFileSync(join(source, ...file.path.split('/')), destination);
      chmodSync(destination, PRIVATE_FILE_MODE);
      if ((await sha256Of(destination)) !== file.sha256) throw new BackupRefused(`${destination} does not match its checksum once copied: check the disk`);
    }
    makePrivate(dataDir);
  } finally {
    process.umask(umask);
  }
  return {
    data_dir: dataDir,
    files: manifest.files.length,
    backup: { created_at: manifest.created_at, version: manifest.application?.version, migration: manifest.database.migration },
  };
}
