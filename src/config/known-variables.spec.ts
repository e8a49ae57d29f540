import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editDistance, KNOWN_VARIABLES, nearMiss, unknownVariableWarnings } from './known-variables';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('known variables', () => {
  it('lists every variable the server reads (a new setting must be added, or it would be reported as unknown)', () => {
    const read = new Set<string>();
    for (const file of sources(join(__dirname, '..'))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/read\w*\(\s*env,\s*'([A-Z][A-Z0-9_]+)'/g)) read.add(match[1]);
      for (const match of text.matchAll(/\b(?:env|process\.env)\.([A-Z][A-Z0-9_]+)/g)) read.add(match[1]);
      for (const match of text.matchAll(/\b(?:env|process\.env)\[\s*'([A-Z][A-Z0-9_]+)'\s*\]/g)) read.add(match[1]);
    }
    expect(read.size).toBeGreaterThan(50);
    expect([...read].filter((name) => !KNOWN_VARIABLES.has(name))).toEqual([]);
  });

  it('measures a swapped pair of letters as one edit', () => {
    expect(editDistance('JWT_SECRET', 'JWT_SECRET')).toBe(0);
    expect(editDistance('JWT_SECRT', 'JWT_SECRET')).toBe(1);
    expect(editDistance('JWT_SECERT', 'JWT_SECRET')).toBe(1);
    expect(editDistance('HOME', 'HOST')).toBe(2);
  });

  it('names the known variable a misspelling is near', () => {
    expect(nearMiss('JWT_SECRT')).toBe('JWT_SECRET');
    expect(nearMiss('DATABSE_URL')).toBe('DATABASE_URL');
    expect(nearMiss('DATA_DIRR')).toBe('DATA_DIR');
    expect(nearMiss('LOG_LEVLE')).toBe('LOG_LEVEL');
    expect(nearMiss('jwt_secret')).toBe('JWT_SECRET');
    expect(nearMiss('PROT')).toBe('PORT');
    expect(nearMiss('JWT_SECRET')).toBeUndefined();
  });

  it('warns about near misses and unknown CARTOGRAPH_ names only, never about the rest of a typical environment', () => {
    const typical = {
      PATH: '/usr/bin',
      HOME: '/root',
      HOSTNAME: 'vm',
      PWD: '/',
      OLDPWD: '/',
      TERM: 'xterm',
      SHELL: '/bin/bash',
      USER: 'root',
      LOGNAME: 'root',
      LANG: 'C.UTF-8',
      LC_ALL: 'C',
      TZ: 'UTC',
      SHLVL: '1',
      MAIL: '/var/mail/root',
      EDITOR: 'vi',
      DEBUG: '',
      NODE_OPTIONS: '--x',
      NODE_PATH: '/x',
      NODE_EXTRA_CA_CERTS: '/x',
      INVOCATION_ID: 'x',
      JOURNAL_STREAM: 'x',
      SYSTEMD_EXEC_PID: '1',
      PGHOST: 'db',
      PGPORT: '5432',
      PGUSER: 'x',
      PGPASSWORD: 'x',
      HTTP_PROXY: 'x',
      NO_PROXY: 'x',
      KUBERNETES_SERVICE_HOST: 'x',
      KUBERNETES_PORT: 'x',
      CARTOGRAPH_SERVICE_HOST: '10.0.0.1',
      CARTOGRAPH_PORT: 'tcp://10.0.0.1:3000',
      CARTOGRAPH_PORT_3000_TCP_ADDR: '10.0.0.1',
      POSTGRES_PORT: 'tcp://x',
      DATABASE_PORT: 'tcp://x',
      npm_config_cache: '/x',
      npm_lifecycle_event: 'start',
      CARTOGRAPH_TEST_DB: 'sqlite',
      CARTOGRAPH_ENV_FILE: '/etc/cartograph.env',
      GLIBC_TUNABLES: 'x',
      HOSTTYPE: 'x86_64',
      OSTYPE: 'linux',
    };
    expect(unknownVariableWarnings(typical)).toEqual([]);
    expect(unknownVariableWarnings({ ...typical, JWT_SECRT: 'x', CARTOGRAPH_PORTT: '1', CARTOGRAPH_DATA_DIR: '/x', jwt_secret: 'x' })).toEqual([
      'CARTOGRAPH_DATA_DIR is not a Cartograph setting and is ignored (settings have no CARTOGRAPH_ prefix, except CARTOGRAPH_ENV_FILE)',
      'CARTOGRAPH_PORTT is not a Cartograph setting and is ignored (settings have no CARTOGRAPH_ prefix, except CARTOGRAPH_ENV_FILE)',
      'JWT_SECRT is not a Cartograph setting and is ignored; did you mean JWT_SECRET?',
      'jwt_secret is not a Cartograph setting and is ignored; did you mean JWT_SECRET?',
    ]);
  });
});
