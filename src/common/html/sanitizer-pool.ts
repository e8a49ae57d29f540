import { OnModuleDestroy } from '@nestjs/common';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { ApiError } from '../errors/api-error';
import { sanitizeRichText, sanitizeRichTextWith } from './sanitize';
import { sanitizeSvgWith } from './sanitize-svg';

export interface SanitizerOptions {
  /** How long one job may take in the worker before it is stopped and the request is 422. */
  deadlineMs: number;
  /** The worker's V8 heap: an input that needs more fails alone (422), never the server. */
  maxOldGenerationSizeMb: number;
  /** Jobs waiting for the worker beyond this many are 503 (Retry-After). */
  maxQueued: number;
}

export const SANITIZER_DEFAULTS: SanitizerOptions = { deadlineMs: 10_000, maxOldGenerationSizeMb: 128, maxQueued: 64 };

/**
 * HTML texts up to this length are sanitized on the calling thread (about a millisecond): a
 * round trip to the worker would cost more, and every write would queue behind uploads.
 */
export const INLINE_RICH_TEXT_CHARS = 2_048;

type Task = { kind: 'svg'; svg: string } | { kind: 'html'; texts: string[] };

interface Job {
  task: Task;
  /** The field a 422 names. */
  field: string;
  resolve(sanitized: unknown): void;
  reject(error: unknown): void;
}

const tooComplex = (why: string, field: string) =>
  ApiError.validation(`The ${field === 'image' ? 'SVG' : field} is too complex to sanitize`, [{ message: why, code: 'too_complex', fields: field }]);

/** The worker's first message: it has loaded the sanitizer (the deadline counts from then). */
const READY = 'cartograph:sanitizer-ready';

/** sanitize-html's entry point, resolved here so that the worker loads the same copy. */
function sanitizeHtmlPath(): string {
  const base = typeof __filename === 'string' ? __filename : `${process.cwd()}/package.json`;
  return createRequire(base).resolve('sanitize-html');
}

/**
 * The worker runs sanitizeSvgWith and sanitizeRichTextWith from their source text: one definition of the rules,
 * whether the code runs compiled (dist) or from TypeScript (tests), without a separate file.
 */
const workerSource = (modulePath: string): string => `
const { parentPort } = require('node:worker_threads');
const sanitizeHtml = require(${JSON.stringify(modulePath)});
const sanitizeSvgWith = (${sanitizeSvgWith.toString()});
const sanitizeRichTextWith = (${sanitizeRichTextWith.toString()});
parentPort.on('message', (task) =>
  parentPort.postMessage(task.kind === 'svg' ? sanitizeSvgWith(sanitizeHtml, task.svg) : task.texts.map((text) => sanitizeRichTextWith(sanitizeHtml, text))),
);
parentPort.postMessage(${JSON.stringify(READY)});
`;

/**
 * Runs sanitize-html (SVG uploads, long HTML texts) one job at a time in a worker thread with
 * a bounded heap and a deadline, so that no input can exhaust the server's memory or block its
 * event loop (issue 9). A worker that runs out of memory or time is terminated (only that
 * request fails, with 422) and replaced for the next one.
 */
export class SanitizerPool implements OnModuleDestroy {
  private readonly options: SanitizerOptions;
  private readonly source = workerSource(sanitizeHtmlPath());
  private readonly queue: Job[] = [];
  private worker: Promise<Worker> | null = null;
  private busy = false;

  constructor(options: Partial<SanitizerOptions> = {}) {
    this.options = { ...SANITIZER_DEFAULTS, ...options };
  }

  /** An uploaded SVG (field `image`), always in the worker. */
  async sanitizeSvg(svg: string): Promise<string> {
    return String(await this.submit({ kind: 'svg', svg }, 'image'));
  }

  /** HTML texts of one request: short ones here, the others in one worker job. */
  async sanitizeRichTexts(texts: string[], field = 'info'): Promise<string[]> {
    const long = texts.filter((text) => text.length > INLINE_RICH_TEXT_CHARS);
    const sanitizedLong = long.length > 0 ? ((await this.submit({ kind: 'html', texts: long }, field)) as string[]) : [];
    let next = 0;
    return texts.map((text) => (text.length > INLINE_RICH_TEXT_CHARS ? sanitizedLong[next++] : sanitizeRichText(text)));
  }

  async sanitizeRichText(text: string, field = 'info'): Promise<string> {
    const [sanitized] = await this.sanitizeRichTexts([text], field);
    return sanitized;
  }

  private submit(task: Task, field: string): Promise<unknown> {
    if (this.queue.length >= this.options.maxQueued) {
      return Promise.reject(ApiError.serviceUnavailable('Too many requests are waiting for the sanitizer; try again shortly'));
    }
    return new Promise<unknown>((resolve, reject) => {
      this.queue.push({ task, field, resolve, reject });
      this.next();
    });
  }

  async onModuleDestroy(): Promise<void> {
    for (const job of this.queue.splice(0)) job.reject(ApiError.serviceUnavailable('The server is shutting down'));
    const worker = this.worker;
    this.worker = null;
    await worker?.then((started) => started.terminate()).catch(() => undefined);
  }

  private next(): void {
    if (this.busy) return;
    const job = this.queue.shift();
    if (!job) return;
    this.busy = true;
    const ready = this.ensureWorker();
    ready.then(
      (worker) => this.run(worker, ready, job),
      () => {
        this.discard(ready);
        this.busy = false;
        job.reject(ApiError.serviceUnavailable('The sanitizer could not be started'));
        this.next();
      },
    );
  }

  private run(worker: Worker, ready: Promise<Worker>, job: Job): void {
    let settled = false;
    const finish = (outcome: () => void, keepWorker: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      if (!keepWorker) this.discard(ready);
      this.busy = false;
      outcome();
      this.next();
    };
    const onMessage = (sanitized: unknown) => finish(() => job.resolve(sanitized), true);
    const onError = (error: Error & { code?: string }) =>
      finish(
        () => job.reject(tooComplex(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'sanitizing it needs more memory than allowed' : 'it could not be sanitized', job.field)),
        false,
      );
    const onExit = () => finish(() => job.reject(tooComplex('it could not be sanitized', job.field)), false);
    const timer = setTimeout(
      () => finish(() => job.reject(tooComplex(`sanitizing it takes longer than ${this.options.deadlineMs} ms`, job.field)), false),
      this.options.deadlineMs,
    );
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage(job.task);
  }

  /** The current worker once it has loaded the sanitizer; started on first use and after a failure. */
  private ensureWorker(): Promise<Worker> {
    if (!this.worker) {
      const worker = new Worker(this.source, {
        eval: true,
        resourceLimits: { maxOldGenerationSizeMb: this.options.maxOldGenerationSizeMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
      });
      // An idle sanitizer must not keep the process alive; errors after a job ends are expected (terminate).
      worker.unref();
      worker.on('error', () => undefined);
      this.worker = new Promise<Worker>((resolve, reject) => {
        worker.once('message', (message) => (message === READY ? resolve(worker) : reject(new Error('unexpected first message'))));
        worker.once('error', reject);
        worker.once('exit', () => reject(new Error('the sanitizer worker exited while starting')));
      });
      this.worker.catch(() => worker.terminate().catch(() => undefined));
    }
    return this.worker;
  }

  private discard(ready: Promise<Worker>): void {
    if (this.worker === ready) this.worker = null;
    ready.then((worker) => worker.terminate()).catch(() => undefined);
  }
}
