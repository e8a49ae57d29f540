import type { Logger } from '../logging/logger';

export interface Closable {
  close(): Promise<unknown>;
}

/**
 * SIGTERM or SIGINT: log it, stop accepting connections, let in-flight requests finish,
 * close the database, log that it stopped and exit 0: a requested stop is a clean exit
 * (Nest's own shutdown hooks re-raise the signal, which ends the process with 143).
 * A second signal while closing exits at once with 1.
 */
export function exitCleanlyOnSignals(closables: () => Closable[], logger: Logger, exit: (code: number) => void = (code) => process.exit(code)): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ context: 'Shutdown', signal }, 'Second signal while stopping; exiting now');
      logger.flush();
      exit(1);
      return;
    }
    stopping = true;
    logger.info({ context: 'Shutdown', signal }, 'Shutting down: finishing in-flight requests');
    const started = Date.now();
    Promise.all(closables().map((closable) => closable.close())).then(
      () => {
        logger.info({ context: 'Shutdown', duration_ms: Date.now() - started }, 'Cartograph stopped');
        logger.flush();
        exit(0);
      },
      (error: unknown) => {
        logger.error({ context: 'Shutdown', error: (error as Error).message }, 'Shutdown failed');
        logger.flush();
        exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
