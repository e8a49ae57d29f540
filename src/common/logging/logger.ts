import { LoggerService } from '@nestjs/common';
import pino, { DestinationStream, Logger } from 'pino';
import { LogLevelName, readLoggingConfig } from '../../config/logging.config';

export type { Logger } from 'pino';

/**
 * The one log schema: every line is a JSON object with `level` (a name), `time` (ISO 8601),
 * `msg`, `pid` and `hostname`, plus the fields of the event (`context`, the request fields...).
 */
export function createLogger(options: { level?: LogLevelName; destination?: DestinationStream | 1 | 2 } = {}): Logger {
  const destination = typeof options.destination === 'object' ? options.destination : batchedOutput(options.destination ?? 1);
  return pino(
    {
      level: options.level ?? 'info',
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/**
 * Lines logged during one turn of the event loop go out in one write (a burst of requests
 * costs one system call, not one per line). All writes go through the process's stdout or
 * stderr stream, so they keep their order; `fatal` (pino's `flushSync`) and the process's
 * exit write what is pending at once. (pino's asynchronous destination was dropped: its
 * `flushSync` on `fatal` overtook the write in flight and reordered the last lines.)
 */
function batchedOutput(fd: 1 | 2): DestinationStream & { flushSync(): void; flush(callback?: () => void): void } {
  const stream = fd === 1 ? process.stdout : process.stderr;
  let pending: string[] = [];
  const flushSync = () => {
    if (pending.length === 0) return;
    const chunk = pending.join('');
    pending = [];
    stream.write(chunk);
  };
  process.once('exit', flushSync);
  return {
    write(line: string) {
      if (pending.push(line) === 1) setImmediate(flushSync);
    },
    flushSync,
    flush(callback?: () => void) {
      flushSync();
      callback?.();
    },
  };
}

let root: Logger | undefined;

/**
 * Exits once the lines already logged are handed to the output, and a quarter of a second
 * later, so that a pipe or a slow terminal has taken them (stdout is asynchronous on
 * some platforms, and a log shipper reading the pipe must see the last line).
 */
export function flushThenExit(logger: Logger, code: number, exit: (code: number) => void = (status) => process.exit(status)): void {
  logger.flush();
  setTimeout(() => exit(code), EXIT_GRACE_MS);
}

const EXIT_GRACE_MS = 250;

/** The process's logger: stdout, at LOG_LEVEL. The CLI points it at stderr, keeping stdout for its output. */
export function rootLogger(): Logger {
  root ??= createLogger({ level: levelOrInfo() });
  return root;
}

// A wrong LOG_LEVEL is reported by the start-up validation, through a logger that must exist first.
function levelOrInfo(): LogLevelName {
  try {
    return readLoggingConfig(process.env).level;
  } catch {
    return 'info';
  }
}

export function setRootLogger(logger: Logger): void {
  root = logger;
}

// Nest's start-up chatter (one line per module and per route, 126 lines a start) is debug detail.
const START_UP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/** Nest's logger interface over pino, so Nest's own messages follow the same schema. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger = rootLogger()) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = contextOf(params);
    this.write(context && START_UP_CONTEXTS.has(context) ? 'debug' : 'info', message, context);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, contextOf(params));
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, contextOf(params));
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, contextOf(params));
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, contextOf(params));
  }
  error(message: unknown, ...params: unknown[]): void {
    // Nest calls error(message, stack?, context?).
    const context = contextOf(params);
    const stack = params.length > 1 && typeof params[0] === 'string' ? params[0] : undefined;
    this.write('error', message, context, stack);
  }

  private write(level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', message: unknown, context?: string, stack?: string): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    if (context) fields.context = context;
    if (message instanceof Error) {
      fields.err = message;
      this.logger[level](fields, message.message);
      return;
    }
    if (stack) fields.stack = stack;
    if (typeof message === 'object' && message !== null) {
      this.logger[level]({ ...fields, ...(message as object) });
      return;
    }
    this.logger[level](fields, String(message));
  }
}

function contextOf(params: unknown[]): string | undefined {
  const last = params.at(-1);
  return typeof last === 'string' ? last : undefined;
}
