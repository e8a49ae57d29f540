import { flushThenExit, Logger } from '../logging/logger';

const SHUTDOWN_DEADLINE_MS = 25_000;

export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

export interface Closable {
  close(): Promise<unknown>;
}

/**
 * SIGTERM, SIGINT or SIGHUP: log it, stop accepting connections, end the streams, let
 * in-flight requests finish, close the database, log that it stopped and exit 0: a requested
 * stop is a clean exit (Nest's own shutdown hooks re-raise the signal, which ends the process
 * with 143). SIGHUP is a stop too: the server has no log file to reopen and reads its
 * configuration only at start, and a closed terminal must not kill it without a drain.
 * A second signal while closing, or closing for longer than 25 s, exits with 1.
 */
export function exitCleanlyOnSignals(closables: () => Closable[], logger: Logger, exit: (code: number) => void = (code) => process.exit(code)): () => void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ context: 'Shutdown', signal }, 'Second signal while stopping; exiting now');
      flushThenExit(logger, 1, exit);
      return;
    }
    stopping = true;
    logger.info({ context: 'Shutdown', signal }, 'Shutting down: finishing in-flight requests');
    const started = Date.now();
    // Under Kubernetes' 30 s grace period: a request that never ends must not turn a stop into a kill.
    setTimeout(() => {
      logger.error({ context: 'Shutdown', duration_ms: Date.now() - started }, 'Shutdown took too long; exiting with requests still open');
      flushThenExit(logger, 1, exit);
    }, SHUTDOWN_DEADLINE_MS).unref();
    Promise.all(closables().map((closable) => closable.close())).then(
      () => {
        logger.info({ context: 'Shutdown', duration_ms: Date.now() - started }, 'Cartograph stopped');
        flushThenExit(logger, 0, exit);
      },
      (error: unknown) => {
        logger.error({ context: 'Shutdown', error: (error as Error).message }, 'Shutdown failed');
        flushThenExit(logger, 1, exit);
      },
    );
  };
  const handlers = STOP_SIGNALS.map((signal) => [signal, () => stop(signal)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  return () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}

/**
 * An error nothing caught ends the process as Node would (exit 1), but in one JSON log
 * line instead of a stack trace on stderr, so the log stays one schema.
 */
export function logFatalErrors(logger: Logger, exit: (code: number) => void = (code) => process.exit(code)): void {
  const die = (error: unknown) => {
    const err = error instanceof Error ? error : new Error(String(error));
    logger.fatal({ context: 'Process', err }, `Unexpected error: ${err.message}`);
    flushThenExit(logger, 1, exit);
  };
  process.on('uncaughtException', die);
  process.on('unhandledRejection', die);
}
