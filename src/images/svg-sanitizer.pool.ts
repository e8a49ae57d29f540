import { OnModuleDestroy } from '@nestjs/common';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { ApiError } from '../common/errors/api-error';
import { sanitizeSvgWith } from './image-content';

export interface SvgSanitizerOptions {
  /** How long one SVG may take in the worker before it is stopped and the upload is 422. */
  deadlineMs: number;
  /** The worker's V8 heap: an SVG that needs more fails alone (422), never the server. */
  maxOldGenerationSizeMb: number;
  /** SVGs waiting for the worker beyond this many are 503 (Retry-After): uploads are rare. */
  maxQueued: number;
}

export const SVG_SANITIZER_DEFAULTS: SvgSanitizerOptions = { deadlineMs: 10_000, maxOldGenerationSizeMb: 128, maxQueued: 8 };

interface Job {
  svg: string;
  resolve(sanitized: string): void;
  reject(error: unknown): void;
}

const tooComplex = (why: string) =>
  ApiError.validation('The SVG is too complex to sanitize', [{ message: why, code: 'too_complex', fields: 'image' }]);

/** The worker's first message: it has loaded the sanitizer (the deadline counts from then). */
const READY = 'cartograph:svg-sanitizer-ready';

/** sanitize-html's entry point, resolved here so that the worker loads the same copy. */
function sanitizeHtmlPath(): string {
  const base = typeof __filename === 'string' ? __filename : `${process.cwd()}/package.json`;
  return createRequire(base).resolve('sanitize-html');
}

/**
 * The worker runs sanitizeSvgWith from its own source text: one definition of the rules,
 * whether the code runs compiled (dist) or from TypeScript (tests), without a separate file.
 */
const workerSource = (modulePath: string): string => `
const { parentPort } = require('node:worker_threads');
const sanitizeHtml = require(${JSON.stringify(modulePath)});
const sanitizeSvgWith = (${sanitizeSvgWith.toString()});
parentPort.on('message', (svg) => parentPort.postMessage(sanitizeSvgWith(sanitizeHtml, svg)));
parentPort.postMessage(${JSON.stringify(READY)});
`;

/**
 * Sanitizes SVGs one at a time in a worker thread with a bounded heap and a deadline, so that
 * no SVG can exhaust the server's memory or block its event loop (issue 9). A worker that runs
 * out of memory or time is terminated (only that upload fails, with 422) and replaced for the
 * next one.
 */
export class SvgSanitizerPool implements OnModuleDestroy {
  private readonly options: SvgSanitizerOptions;
  private readonly source = workerSource(sanitizeHtmlPath());
  private readonly queue: Job[] = [];
  private worker: Promise<Worker> | null = null;
  private busy = false;

  constructor(options: Partial<SvgSanitizerOptions> = {}) {
    this.options = { ...SVG_SANITIZER_DEFAULTS, ...options };
  }

  sanitize(svg: string): Promise<string> {
    if (this.queue.length >= this.options.maxQueued) {
      return Promise.reject(ApiError.serviceUnavailable('Too many SVG uploads are being processed; try again shortly'));
    }
    return new Promise<string>((resolve, reject) => {
      this.queue.push({ svg, resolve, reject });
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
        job.reject(ApiError.serviceUnavailable('The SVG sanitizer could not be started'));
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
    const onMessage = (sanitized: unknown) => finish(() => job.resolve(String(sanitized)), true);
    const onError = (error: Error & { code?: string }) =>
      finish(
        () => job.reject(tooComplex(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'sanitizing it needs more memory than allowed' : 'it could not be sanitized')),
        false,
      );
    const onExit = () => finish(() => job.reject(tooComplex('it could not be sanitized')), false);
    const timer = setTimeout(() => finish(() => job.reject(tooComplex(`sanitizing it takes longer than ${this.options.deadlineMs} ms`)), false), this.options.deadlineMs);
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage(job.svg);
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
