// First: refuses an unsupported Node.js in one line (exit 69) before any native module loads.
import '../scripts/check-node.cjs';
import 'reflect-metadata';
import { text } from 'node:stream/consumers';
import { runCli } from './cli/cli';
import { createLogger, setRootLogger } from './common/logging/logger';
import { ConfigurationError, EX_CONFIG } from './config/env';
import { readLoggingConfig } from './config/logging.config';
import { loadEnvFile, withoutEnvFileArgument } from './config/validation';

// Logs go to stderr: stdout is the command's answer (JSON a script can read).
async function main(): Promise<number> {
  loadEnvFile(process.argv.slice(2));
  setRootLogger(createLogger({ level: process.env.LOG_LEVEL ? readLoggingConfig(process.env).level : 'warn', destination: 2 }));
  return runCli(withoutEnvFileArgument(process.argv.slice(2)), {
    stdout: (output) => process.stdout.write(output),
    stderr: (output) => process.stderr.write(output),
    stdin: () => text(process.stdin),
  });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof ConfigurationError ? EX_CONFIG : 1;
  },
);
