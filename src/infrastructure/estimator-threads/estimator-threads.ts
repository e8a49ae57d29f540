import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Worker } from 'node:worker_threads';
import { appConfig, AppConfig } from '../../config/app.config';
import { workerEntry } from '../../common/process/worker-entry';
import { Estimate, EstimatorOptions, estimatePosition, ScanReading, TransmitterIndex } from '../estimator/scan-estimator';
import type { EstimateReply, EstimateRequest } from './estimator-worker';

interface Pending {
  request: EstimateRequest;
  index: TransmitterIndex;
  resolve(estimates: Estimate[]): void;
}

interface Thread {
  worker: Worker;
  /** The site keys this thread was sent (it keeps the latest few; a `missing` reply sends one again). */
  sent: Set<string>;
  pending: Map<number, Pending>;
}

/** A batch of one scan is placed here: a round trip to a thread costs about what the estimate does. */
const INLINE_SCANS = 1;
/** The thread's V8 heap: a building's transmitters and the scans in flight need a few megabytes. */
const THREAD_HEAP_MB = 64;
/** Keys remembered per thread before the set starts again (the thread answers `missing` for any it dropped). */
const SENT_KEYS = 32;

/**
 * The single-scan estimator on worker threads (`SCAN_ESTIMATOR_THREADS`, one by default on a
 * machine of two cores or more, none on one): a batch's estimates are computed beside the event
 * loop, which meanwhile parses, stores and answers other batches, so scans go through at the
 * speed of both cores instead of one. The same function on the same data gives the same
 * estimates as on this thread (a test compares them); a building whose floors place scans by
 * fingerprints or a radio map, a batch of one scan, and any batch whose thread fails or is
 * stopped are estimated here. The threads hold only copies: nothing another instance needs.
 */
@Injectable()
export class EstimatorThreads implements OnModuleDestroy {
  private readonly logger = new Logger(EstimatorThreads.name);
  private readonly threads: Array<Thread | null>;
  private next = 0;
  private nextId = 0;
  private closed = false;
  /** Scans estimated on a thread, and here (none, fingerprints or a radio map, one scan, a thread lost). */
  readonly counts = { threads: 0, here: 0 };
  private readonly keys = new WeakMap<TransmitterIndex, string>();
  private nextKey = 0;
  /** Per index, what a thread rebuilds it from (null: fingerprints or a radio map, which stay here). */
  private readonly portable = new WeakMap<TransmitterIndex, ReturnType<TransmitterIndex['portable']>>();

  constructor(@Inject(appConfig.KEY) config: AppConfig) {
    this.threads = Array.from({ length: config.positions.estimatorThreads }, () => null);
  }

  /** The estimates of `scans` (in their order) against `index` (a copy of which the threads keep while it is recent). */
  estimate(index: TransmitterIndex, scans: ScanReading[][], options: EstimatorOptions): Promise<Estimate[]> {
    if (this.threads.length === 0 || this.closed || scans.length <= INLINE_SCANS || !this.portableOf(index)) return Promise.resolve(this.here(index, scans, options));
    const slot = this.next;
    this.next = (this.next + 1) % this.threads.length;
    const thread = this.threads[slot] ?? this.start(slot);
    if (!thread) return Promise.resolve(this.here(index, scans, options));
    return new Promise<Estimate[]>((resolve) => {
      const key = this.keyOf(index);
      const request: EstimateRequest = { id: (this.nextId += 1), key, scans, options };
      if (!thread.sent.has(key)) request.site = this.sendable(thread, index, key);
      if (thread.pending.size === 0) thread.worker.ref();
      thread.pending.set(request.id, { request, index, resolve });
      thread.worker.postMessage(request);
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((thread, slot) => (thread ? this.stop(slot, thread) : undefined)));
  }

  /** A key per index object: a site's revisions change its index, and revisions alone repeat across buildings. */
  private keyOf(index: TransmitterIndex): string {
    let key = this.keys.get(index);
    if (key === undefined) this.keys.set(index, (key = String((this.nextKey += 1))));
    return key;
  }

  private portableOf(index: TransmitterIndex): ReturnType<TransmitterIndex['portable']> {
    let portable = this.portable.get(index);
    if (portable === undefined) this.portable.set(index, (portable = index.portable()));
    return portable;
  }

  private sendable(thread: Thread, index: TransmitterIndex, key: string): EstimateRequest['site'] {
    if (thread.sent.size >= SENT_KEYS) thread.sent.clear();
    thread.sent.add(key);
    return this.portableOf(index)!;
  }

  private start(slot: number): Thread | null {
    try {
      const { source, entry, typescript } = workerEntry(
        typeof __filename === 'string' ? __filename : undefined,
        'src/infrastructure/estimator-threads/estimator-threads.ts',
        'estimator-worker',
      );
      const worker = new Worker(source, { eval: true, workerData: { entry, typescript }, resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
      const thread: Thread = { worker, sent: new Set(), pending: new Map() };
      worker.unref();
      worker.on('message', (reply: EstimateReply) => this.received(thread, reply));
      const lost = (why: string) => {
        if (this.threads[slot] !== thread) return;
        this.threads[slot] = null;
        if (!this.closed) this.logger.warn(`An estimator thread stopped (${why}); its batches are estimated on the main thread and the next batch starts a new one`);
        this.settleHere(thread);
      };
      worker.on('error', (error) => lost(error.message));
      worker.on('exit', (code) => lost(`exit code ${code}`));
      this.threads[slot] = thread;
      return thread;
    } catch (error) {
      this.logger.warn(`No estimator thread could start (${String(error)}); scans are estimated on the main thread`);
      return null;
    }
  }

  private received(thread: Thread, reply: EstimateReply): void {
    const pending = thread.pending.get(reply.id);
    if (!pending) return;
    if ('missing' in reply) {
      // The thread dropped the site (it keeps a few): the same request, with it.
      pending.request.site = this.sendable(thread, pending.index, pending.request.key);
      thread.worker.postMessage(pending.request);
      return;
    }
    thread.pending.delete(reply.id);
    if (thread.pending.size === 0) thread.worker.unref();
    if ('error' in reply) {
      this.logger.warn(`An estimator thread failed a batch (${reply.error}); it is estimated on the main thread`);
      pending.resolve(this.here(pending.index, pending.request.scans, pending.request.options));
    } else {
      this.counts.threads += reply.estimates.length;
      pending.resolve(reply.estimates);
    }
  }

  /** Every batch a thread still had, estimated here: a failed or stopped thread loses none. */
  private settleHere(thread: Thread): void {
    for (const pending of thread.pending.values()) pending.resolve(this.here(pending.index, pending.request.scans, pending.request.options));
    thread.pending.clear();
  }

  private async stop(slot: number, thread: Thread): Promise<void> {
    this.threads[slot] = null;
    this.settleHere(thread);
    await thread.worker.terminate();
  }

  private here(index: TransmitterIndex, scans: ScanReading[][], options: EstimatorOptions): Estimate[] {
    this.counts.here += scans.length;
    return scans.map((readings) => estimatePosition(readings, index, options));
  }
}
