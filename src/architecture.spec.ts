import { ESLint } from 'eslint';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { LAYERS, WEB_IMPORTS } from '../eslint/layers.mjs';

const ROOT = join(__dirname, '..');

/** The layers as docs/architecture.md states them: `| \`folder\` | … | \`a\`, \`b\` |` rows of its folder table. */
function documentedLayers(): Record<string, string[] | '*'> {
  const text = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const table = text.slice(text.indexOf('<!-- layers -->'), text.indexOf('<!-- /layers -->'));
  const layers: Record<string, string[] | '*'> = {};
  for (const line of table.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const folder = /^`([\w.-]+)`$/.exec(cells[1] ?? '')?.[1];
    if (!folder) continue;
    const imports = cells[3] ?? '';
    layers[folder] = imports === 'everything' ? '*' : imports === '—' ? [] : [...imports.matchAll(/`([\w.-]+)`/g)].map((match) => match[1]).sort();
  }
  return layers;
}

describe('the house keeps its shape', () => {
  it('lints clean: typescript-eslint, and every folder (and web/src) of src/ imports only what its layer allows (eslint/layers.mjs)', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const results = await eslint.lintFiles(['src', 'migrations', 'test', 'web/src']);
    const problems = results.flatMap((result) =>
      result.messages.map((message) => `${result.filePath.slice(ROOT.length + 1)}:${message.line} ${message.ruleId}: ${message.message}`),
    );
    expect(problems).toEqual([]);
  }, 300_000);

  it('has a layer for every top-level folder of src/, and the layers point one way (no circle can form)', () => {
    const entries = readdirSync(join(ROOT, 'src'), { withFileTypes: true }).filter(
      (entry) => entry.isDirectory() || (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')),
    );
    const folders = [...new Set(entries.map((entry) => entry.name.replace(/\.ts$/, '')))].sort();
    expect(folders).toEqual(Object.keys(LAYERS).sort());
    // Depth-first: a folder reached again while on the path is a circle.
    const state = new Map<string, 'open' | 'done'>();
    const visit = (folder: string, path: string[]): void => {
      if (state.get(folder) === 'done') return;
      if (state.get(folder) === 'open') throw new Error(`layers circle: ${[...path, folder].join(' -> ')}`);
      state.set(folder, 'open');
      const allowed = LAYERS[folder as keyof typeof LAYERS];
      if (allowed !== '*') for (const below of allowed) visit(below, [...path, folder]);
      state.set(folder, 'done');
    };
    for (const folder of Object.keys(LAYERS)) visit(folder, []);
  });

  it('docs/architecture.md states the layers the lint rule enforces', () => {
    const enforced = Object.fromEntries(Object.entries(LAYERS).map(([folder, allowed]) => [folder, allowed === '*' ? '*' : [...allowed].sort()]));
    expect(documentedLayers()).toEqual(enforced);
  });
});

/** The folder-layers problems ESLint finds in `code` as if it were the file `path`: `line messageId`. */
async function layerProblems(path: string, code: string): Promise<string[]> {
  const [result] = await new ESLint({ cwd: ROOT }).lintText(code, { filePath: join(ROOT, path) });
  return result.messages
    .filter((message) => message.ruleId === 'cartograph/folder-layers' || message.fatal)
    .map((message) => `${message.line} ${message.messageId ?? message.message}`);
}

describe('the folder-layers rule bites', () => {
  it('keeps the geofence engine pure: no Nest, database, rxjs or other folder, however the module is named', async () => {
    const probe = [
      "import { DataSource } from 'typeorm';",
      "import { Injectable } from '@nestjs/common';",
      "const transactions = require('../../database/transactions');",
      "import { GeofenceStateRepository } from '../state/geofence-state.repository';",
      "export const pg = import('pg');",
      "type Sqlite = import('better-sqlite3').Database;",
      "export { Subject } from 'rxjs';",
      "import type { Clock } from '../../common/time/durations';",
      'const loaded = require(process.env.MODULE as string);',
      "import { appConfig } from '../../config/app.config';",
      "import { fc } from 'fast-check';",
      "import { seededRandom } from '../../../test/support/synthetic-scans';",
      "import x = require('../events/geofence-event');",
      'export const all = [DataSource, Injectable, transactions, GeofenceStateRepository, loaded, appConfig, fc, seededRandom, x] as unknown as Sqlite & Clock;',
    ].join('\n');
    expect(await layerProblems('src/geofencing/engine/probe.ts', probe)).toEqual([
      '1 pure',
      '2 pure',
      '3 pure',
      '4 pure',
      '5 pure',
      '6 pure',
      '7 pure',
      '8 pure',
      '9 dynamic',
      '10 pure',
      '11 pure',
      '12 pure',
      '13 pure',
    ]);
  });

  it('lets pure code import itself, its pure neighbours and its packages, and its specs the test runner and test/support', async () => {
    const engine = "import Flatbush from 'flatbush';\nimport { classifyPoint } from './classify';\nexport const all = [Flatbush, classifyPoint];";
    expect(await layerProblems('src/geofencing/engine/probe.ts', engine)).toEqual([]);
    const spec =
      "import fc from 'fast-check';\nimport { it } from 'vitest';\nimport { seededRandom } from '../../../test/support/synthetic-scans';\nimport { classifyPoint } from './classify';\nit('runs', () => void [fc, seededRandom, classifyPoint]);";
    expect(await layerProblems('src/geofencing/engine/probe.spec.ts', spec)).toEqual([]);
    const tracker =
      "import type { TransmitterIndex } from '../estimator/scan-estimator';\nimport { scanRadio } from '../estimator/scan-likelihood';\nexport const all: [TransmitterIndex?, unknown?] = [undefined, scanRadio];";
    expect(await layerProblems('src/infrastructure/tracker/probe.ts', tracker)).toEqual([]);
  });

  it('keeps the estimator below the tracker, and both and the reported-fix filter off the server', async () => {
    expect(await layerProblems('src/infrastructure/estimator/probe.ts', "export const tracker = require('../tracker/tracker');")).toEqual(['1 pure']);
    expect(await layerProblems('src/infrastructure/estimator/probe.ts', "export { InfrastructureService } from '../infrastructure.service';")).toEqual(['1 pure']);
    expect(await layerProblems('src/infrastructure/tracker/probe.ts', "export * from '../../geofencing/engine/rules';")).toEqual(['1 pure']);
    expect(await layerProblems('src/fix-pipeline/reported-fix-filter.ts', "import type { AcceptedFix } from '../positions/fix';\nexport type A = AcceptedFix;")).toEqual([
      '1 pure',
    ]);
    // The filter's wrapper in the same folder is no pure code: the layer of fix-pipeline allows positions.
    expect(await layerProblems('src/fix-pipeline/reported-fix-filtering.ts', "import type { AcceptedFix } from '../positions/fix';\nexport type A = AcceptedFix;")).toEqual([]);
  });

  it('keeps geofencing/state from importing geofencing/events (but for the one type the repository writes)', async () => {
    const probe = "import { GeofenceEventBody } from '../events/geofence-event';\nexport const log = require('../events/event-log.service');\nexport type B = GeofenceEventBody;";
    expect(await layerProblems('src/geofencing/state/probe.ts', probe)).toEqual(['1 never', '2 never']);
    expect(await layerProblems('src/geofencing/state/probe.ts', "import type { GeofenceEventBody } from '../events/geofence-event';\nexport type B = GeofenceEventBody;")).toEqual([
      '1 never',
    ]);
    const repository = 'src/geofencing/state/geofence-state.repository.ts';
    expect(await layerProblems(repository, "import type { GeofenceEventBody } from '../events/geofence-event';\nexport type B = GeofenceEventBody;")).toEqual([]);
    expect(await layerProblems(repository, "import { newEventId } from '../events/geofence-event';\nexport const id = newEventId;")).toEqual(['1 never']);
    expect(await layerProblems(repository, "import type { GeofenceEventLog } from '../events/event-log.service';\nexport type L = GeofenceEventLog;")).toEqual(['1 never']);
  });

  it('checks require() and import() against the top-level layers too', async () => {
    expect(await layerProblems('src/common/probe.ts', "export const users = require('../users/users.service');\nexport const auth = import('../auth/auth.module');")).toEqual([
      '1 forbidden',
      '2 forbidden',
    ]);
  });

  it('lets web/ import from src/ only the files WEB_IMPORTS names', async () => {
    const probe = [
      "import { ENTER_WHEN } from '../../src/geofencing/engine/rules';",
      "import { TransactionRunner } from '../../src/database/transactions';",
      "const config = require('../../src/config/app.config');",
      "export const durations = import('../../src/common/time/durations');",
      "import { classifyPoint } from '../../src/geofencing/engine/classify';",
      'export const all = [ENTER_WHEN, TransactionRunner, config, classifyPoint];',
    ].join('\n');
    expect(await layerProblems('web/src/probe.ts', probe)).toEqual(['2 web', '3 web', '4 web', '5 web']);
    const tsx = "import { csvText } from '../../../src/common/csv/csv-cells';\nexport const Cell = () => <b>{csvText('a')}</b>;";
    expect(await layerProblems('web/src/pages/probe.tsx', tsx)).toEqual([]);
  });
});

/** The module specifiers a TypeScript file names (import/export from, import(), require()). */
function specifiersOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|[\s;])(?:import|export)\s[^'";]*?from\s*'([^']+)'|(?:\bimport|\brequire)\(\s*'([^']+)'\s*\)|^import\s+'([^']+)'/gm)].map(
    (match) => match[1] ?? match[2] ?? match[3],
  );
}

/** A relative specifier's TypeScript file. */
const fileOf = (from: string, specifier: string): string => {
  const base = resolve(dirname(from), specifier).replace(/\.js$/, '');
  return ['.ts', '.tsx', '/index.ts'].map((ending) => base + ending).find((file) => existsSync(file)) ?? base;
};

describe('what the dashboard takes from the server', () => {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : []));

  it('WEB_IMPORTS is what web/src imports from src/ today, no more', () => {
    const imported = new Set<string>();
    for (const file of walk(join(ROOT, 'web/src')))
      for (const specifier of specifiersOf(file)) {
        if (!specifier.startsWith('.')) continue;
        const target = relative(join(ROOT, 'src'), fileOf(file, specifier));
        if (!target.startsWith('..')) imported.add(target.replace(/\.tsx?$/, ''));
      }
    expect([...imported].sort()).toEqual([...WEB_IMPORTS].sort());
  });

  it('the server files web/ bundles, and what they import in turn, name no npm package', () => {
    const seen = new Set<string>();
    const packages: string[] = [];
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const specifier of specifiersOf(file)) {
        if (specifier.startsWith('.')) visit(fileOf(file, specifier));
        else packages.push(`${relative(ROOT, file)}: ${specifier}`);
      }
    };
    for (const id of WEB_IMPORTS) visit(join(ROOT, 'src', `${id}.ts`));
    expect(packages).toEqual([]);
    expect(seen.size).toBeGreaterThan(WEB_IMPORTS.length);
  });
});

describe('the code is formatted', () => {
  it('as Prettier writes it (.prettierrc.json; `npm run format` fixes it)', async () => {
    // The tracked files and the new ones not ignored by git: what a commit would hold.
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
    const ignorePath = join(ROOT, '.prettierignore');
    const unformatted: string[] = [];
    let checked = 0;
    for (const file of files) {
      const path = join(ROOT, file);
      if (!existsSync(path)) continue;
      const info = await prettier.getFileInfo(path, { ignorePath });
      if (info.ignored || info.inferredParser === null) continue;
      const options = await prettier.resolveConfig(path);
      checked += 1;
      if (!(await prettier.check(readFileSync(path, 'utf8'), { ...options, filepath: path }))) unformatted.push(file);
    }
    expect(unformatted).toEqual([]);
    expect(checked).toBeGreaterThan(500);
  }, 300_000);
});

/**
 * Where SQL text and questions of which database may live: repositories and stores (`*.repository.ts`,
 * `*-store.ts`, `*.store.ts`, with their statements declared through src/database/statements.ts) and
 * src/database itself; a module's provider may choose a repository by database (`*.module.ts`). The
 * files below predate the rule and are moved, one by one, into repositories: the list only shrinks.
 */
const SQL_TEXT =
  /`[^`]*\b(SELECT\b[^`]*\bFROM|INSERT INTO|DELETE FROM|UPDATE\s+"?\w+"?\s+SET)\b|'[^'\n]*\b(SELECT\b[^'\n]*\bFROM|INSERT INTO|DELETE FROM|UPDATE\s+"?\w+"?\s+SET)\b/;
const DIALECT_TEST = /options\.type\s*[!=]==?\s*'postgres'|type\s*[!=]==?\s*'postgres'|\bpostgres:\s*boolean|\.kind\s*[!=]==?\s*'(postgres|sqlite)'/;
/** A statement's text handed to TypeORM itself, past the declared statements and their one translator. */
const RAW_QUERY = /\b(manager|dataSource|queryRunner!?|entityManager)\.query\(/;
const SQL_HOMES = /\.repository\.ts$|-store\.ts$|\.store\.ts$|^src\/database\//;

/**
 * The process's entry points choose what to do by the configured database (`database.kind`: lock
 * DATA_DIR, copy the file or print the pg_dump hint, say which database in the logs): a choice of
 * operations, made once at start, not of SQL. They may test the kind; they hold no SQL text.
 */
const DEPLOYMENT_CHOICES = new Set(['src/main.ts', 'src/cli/backup.ts', 'src/cli/cli-support.ts', 'src/cli/cli.ts']);

describe('one way to the database', () => {
  it('keeps SQL text and dialect tests in repositories, stores and src/database', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && existsSync(join(ROOT, file)) && !SQL_HOMES.test(file));
    const found: Record<string, 'sql' | 'dialect' | 'both'> = {};
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const sql = SQL_TEXT.test(text);
      // A module's provider may choose a repository by database; an entry point what to do.
      const dialect = !file.endsWith('.module.ts') && !DEPLOYMENT_CHOICES.has(file) && DIALECT_TEST.test(text);
      if (sql || dialect) found[file] = sql && dialect ? 'both' : sql ? 'sql' : 'dialect';
    }
    // A file here: move its statements into a repository (or the choice into its module's provider).
    expect(found).toEqual({});
  });

  it('sends only declared statements: no text straight to TypeORM outside src/database (every statement is in the snapshot)', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && existsSync(join(ROOT, file)) && !file.startsWith('src/database/'));
    const found = files.filter((file) => RAW_QUERY.test(readFileSync(join(ROOT, file), 'utf8')));
    // A file here: declare the statement (statements.ts) and send it through SqlRunner or SqliteStatements.
    expect(found).toEqual([]);
    expect(RAW_QUERY.test('await manager.query(`DELETE FROM position_rollups WHERE slot < $1`, [cutoff]);')).toBe(true);
    expect(RAW_QUERY.test('const result = await manager.queryRunner!.query(sql, [cutoff], true);')).toBe(true);
    expect(RAW_QUERY.test('await this.dataSource.query(`SELECT 1`);')).toBe(true);
    expect(RAW_QUERY.test('await this.sql.inOrder(manager, POSTGRES_DELETE, [cutoff]);')).toBe(false);
  });

  it('the rule bites: SQL text or a dialect test in a service is found', () => {
    expect(SQL_TEXT.test('await manager.query(`SELECT "id" FROM "devices" WHERE "id" = $1`, [id]);')).toBe(true);
    expect(SQL_TEXT.test("const sql = 'DELETE FROM login_failures';")).toBe(true);
    expect(SQL_TEXT.test('// Select the devices from the list')).toBe(false);
    expect(DIALECT_TEST.test("if (this.dataSource.options.type === 'postgres') {")).toBe(true);
    expect(DIALECT_TEST.test("if (!lock || manager.connection.options.type !== 'postgres') return {};")).toBe(true);
    expect(DIALECT_TEST.test('constructor(private readonly postgres: boolean) {}')).toBe(true);
    expect(SQL_HOMES.test('src/auth/login-failures.repository.ts')).toBe(true);
    expect(SQL_HOMES.test('src/auth/login-throttle.service.ts')).toBe(false);
  });
});

describe('the devices table is read settled', () => {
  it('is read only by the position stores and the two repositories that settle it first (SQLite writes the newest fixes behind the ingest)', () => {
    const READERS = new Set(['src/devices/devices.repository.ts', 'src/positions/live-positions.repository.ts']);
    const READS = /FROM "?devices"?\b|JOIN "?devices"?\b|InjectRepository\(Device\)|\(Device[,)]|getRepository\(Device\)/;
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && existsSync(join(ROOT, file)));
    const readers = files.filter((file) => READS.test(readFileSync(join(ROOT, file), 'utf8')) && !/^src\/positions\/[\w-]+-store\.ts$/.test(file)).sort();
    expect(readers).toEqual([...READERS].sort());
    for (const file of READERS) expect(readFileSync(join(ROOT, file), 'utf8')).toContain('this.store.flushNewest(');
  });
});

describe('rules are changed one way', () => {
  it('writes fence rules and organization settings only in GeofenceRulesRepository, whose writes take a pinned write', () => {
    const WRITES = /\.(update|insert|delete|save|upsert)\((GeofenceRuleSet|GeofencingSettings)\b|(DELETE FROM|INTO|UPDATE) "?(geofence_rule_sets|geofencing_settings)"?/;
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && existsSync(join(ROOT, file)));
    expect(files.filter((file) => WRITES.test(readFileSync(join(ROOT, file), 'utf8')))).toEqual(['src/geofencing/rules/geofence-rules.repository.ts']);
    const repository = readFileSync(join(ROOT, 'src/geofencing/rules/geofence-rules.repository.ts'), 'utf8');
    const writes = [...repository.matchAll(/^  async (\w+)\(([^)]*)/gm)];
    expect(writes.length).toBeGreaterThanOrEqual(3);
    for (const [, name, parameters] of writes) expect(parameters, name).toMatch(/^\s*\{ manager \}: PinnedRulesWrite/);
  });
});
