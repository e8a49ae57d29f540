import { ConsoleLogger, LogLevel } from '@nestjs/common';

/** Structured JSON logs on stdout, one object a line. */
export function createJsonLogger(levels: LogLevel[] = ['log', 'error', 'warn', 'fatal']): ConsoleLogger {
  return new ConsoleLogger({ json: true, logLevels: levels });
}
