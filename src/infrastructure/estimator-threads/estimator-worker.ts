/**
 * The worker thread of {@link EstimatorThreads}: the single-scan estimator on a copy of each
 * building's calibrated transmitters, kept per key (the site's revisions) for the latest few.
 * It owns nothing another thread or instance needs: a message in, the estimates out.
 */
import { parentPort } from 'node:worker_threads';
import { Estimate, EstimatorOptions, estimatePosition, FloorEstimation, ScanReading, TransmitterIndex } from '../estimator/scan-estimator';
import { KnownTransmitter } from '../estimator/transmitter';

export interface EstimateRequest {
  id: number;
  key: string;
  /** The site, when the thread may not have it under `key`. */
  site?: { transmitters: KnownTransmitter[]; floors: Map<number, FloorEstimation> };
  scans: ScanReading[][];
  options: EstimatorOptions;
}

export type EstimateReply = { id: number; estimates: Estimate[] } | { id: number; missing: true } | { id: number; error: string };

/** Sites kept: a building's key changes with every model merge, and a few buildings post at once. */
const KEPT_SITES = 8;

const sites = new Map<string, TransmitterIndex>();

function siteFor(request: EstimateRequest): TransmitterIndex | null {
  let index = sites.get(request.key);
  if (index) {
    // Most recently used last.
    sites.delete(request.key);
    sites.set(request.key, index);
    return index;
  }
  if (!request.site) return null;
  index = new TransmitterIndex(request.site.transmitters, request.site.floors);
  sites.set(request.key, index);
  while (sites.size > KEPT_SITES) sites.delete(sites.keys().next().value!);
  return index;
}

export function answer(request: EstimateRequest): EstimateReply {
  try {
    const index = siteFor(request);
    if (!index) return { id: request.id, missing: true };
    return { id: request.id, estimates: request.scans.map((readings) => estimatePosition(readings, index, request.options)) };
  } catch (error) {
    return { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on('message', (request: EstimateRequest) => parentPort!.postMessage(answer(request)));
