import { Injectable } from '@nestjs/common';
import { Principal } from '../access/principal';
import { ApiError, FieldError } from '../common/errors/api-error';
import { ErrorCode } from '../common/errors/error-code';
import { FixPipeline, IngestResult } from '../fix-pipeline/fix-pipeline';
import { EstimatedFix, ScanPositioningService } from './scan-positioning.service';
import { ScanTracking, TrackOutcome } from './scan-tracking';

/** At most this many scans per request, like positions (contract 6.2). */
export const MAX_SCANS_PER_REQUEST = 1000;
/**
 * The body limit of this route: 1,000 scans of 30 BLE readings are about 2.5 MB of JSON, over
 * the API's 1 MiB. A request in flight holds its text and its parsed scans (about 3 times the
 * text), and the ingest is CPU-bound, so few are in flight at once.
 */
export const SCANS_BODY_LIMIT_BYTES = 3 * 1024 * 1024;

export interface ScanRejection {
  index: number;
  code: string;
  fields: string;
  message: string;
}

export interface ScanIngestResult {
  accepted: number;
  rejected: ScanRejection[];
  /** Each position estimated from a scan and accepted, in scan order: the tracked one, with the single-scan estimate as `raw`. */
  fixes: AnsweredFix[];
  events: unknown[];
}

export interface AnsweredFix {
  index: number;
  device_id: string;
  time: string;
  building_id: number;
  floor_id: number;
  lat: number;
  lng: number;
  x: number;
  y: number;
  accuracy: number;
  method: EstimatedFix['method'];
  transmitters_used: number;
  /** The single-scan estimate. */
  raw: { floor_id: number; x: number; y: number; lat: number; lng: number; accuracy: number };
  /** What the tracker made of the scan: `tracked` (the track went on), `started` (with `reason`), `late` (older than the track: stored as estimated, the track unmoved), `off`. */
  track: { status: TrackOutcome['status']; reason: TrackOutcome['reason'] };
}

function scansOf(body: unknown): unknown[] {
  const items = Array.isArray(body) ? body : body && typeof body === 'object' && Array.isArray((body as { scans?: unknown }).scans) ? (body as { scans: unknown[] }).scans : null;
  if (!items) throw ApiError.validation('The body must be {"scans":[...]} or an array of scans', [{ message: 'expected scans', code: 'invalid', fields: 'body' }]);
  if (items.length > MAX_SCANS_PER_REQUEST) throw new ApiError(413, ErrorCode.PayloadTooLarge, `At most ${MAX_SCANS_PER_REQUEST} scans per request`);
  if (items.length === 0) throw ApiError.validation('The batch holds no scans', [{ message: `send 1 to ${MAX_SCANS_PER_REQUEST} scans`, code: 'required', fields: 'scans' }]);
  return items;
}

/**
 * `POST /api/v1/realtime/scans`: positions computed on the server from what devices heard, then
 * fed to the same pipeline as reported fixes (validation of the time window, history, the live
 * picture, geofence events), in one batch. Rejections of either step name the scan's index.
 */
@Injectable()
export class ScansService {
  constructor(
    private readonly estimator: ScanPositioningService,
    private readonly positions: FixPipeline,
    private readonly tracking: ScanTracking,
  ) {}

  /** `returnEvents: false` leaves the fired events out of the answer (they are stored all the same), as for positions. */
  async ingest(principal: Principal, body: unknown, options: { returnEvents?: boolean } = {}): Promise<ScanIngestResult> {
    const { fixes, rejected, sites } = await this.estimator.estimateBatch(principal, scansOf(body));
    if (fixes.length === 0) throw ApiError.validation('No scan of the batch gave a position; none was stored', rejected);
    const items = fixes.map((fix) => ({
      device_id: fix.device_id,
      time: fix.time.getTime(),
      building_id: fix.building_id,
      floor_id: fix.floor_id,
      lat: fix.lat,
      lng: fix.lng,
      accuracy: fix.accuracy,
    }));
    // Filled by the tracker under the devices' lock, by the pipeline's index (the position in `fixes`), with what it stored.
    const outcomes = new Map<number, TrackOutcome>();
    let stored: IngestResult;
    try {
      // The tracker's stage only where a building of the batch tracks (it reads and writes the devices' states).
      const tracked = [...sites.values()].some((placed) => placed.site.tracking.scans);
      stored = await this.positions.ingest(principal, { positions: items }, { ...options, ...(tracked && { refine: this.tracking.refiner(fixes, sites, outcomes) }) });
    } catch (error) {
      // Every estimated fix refused by the pipeline (too old, in the future…): one list for the whole batch.
      if (error instanceof ApiError && error.status === 422) throw ApiError.validation('No scan of the batch was stored', merge(rejected, relabel(error.errors, fixes)));
      throw error;
    }
    const refusedByPipeline = relabel(stored.rejected, fixes);
    const refused = new Set(refusedByPipeline.map((r) => r.index));
    return {
      accepted: stored.accepted,
      rejected: merge(rejected, refusedByPipeline),
      fixes: fixes.flatMap((fix, at) => (refused.has(fix.index) ? [] : [answered(fix, outcomes.get(at))])),
      events: stored.events,
    };
  }
}

/** A fix as answered: what was stored (the tracked position where there is one), and the single-scan estimate. */
function answered(fix: EstimatedFix, outcome: TrackOutcome | undefined): AnsweredFix {
  const kept = outcome?.position;
  const raw = { floor_id: fix.floor_id, x: fix.x, y: fix.y, lat: fix.lat, lng: fix.lng, accuracy: fix.accuracy };
  return {
    index: fix.index,
    device_id: fix.device_id,
    time: fix.time.toISOString(),
    building_id: fix.building_id,
    floor_id: kept?.floorId ?? fix.floor_id,
    lat: kept?.lat ?? fix.lat,
    lng: kept?.lng ?? fix.lng,
    x: kept?.x ?? fix.x,
    y: kept?.y ?? fix.y,
    accuracy: kept?.accuracy ?? fix.accuracy,
    method: fix.method,
    transmitters_used: fix.transmitters_used,
    raw,
    track: { status: outcome?.status ?? 'off', reason: outcome?.reason ?? null },
  };
}

/** The pipeline numbers the estimated fixes; the caller knows its scans. */
function relabel(rejections: ReadonlyArray<Pick<FieldError, 'message' | 'code' | 'fields'> & { index?: number }>, fixes: EstimatedFix[]): ScanRejection[] {
  return rejections.map((r) => {
    const index = typeof r.index === 'number' ? (fixes[r.index]?.index ?? -1) : -1;
    return { index, code: r.code, fields: r.fields, message: r.message };
  });
}

function merge(a: ScanRejection[], b: ScanRejection[]): ScanRejection[] {
  return [...a, ...b].sort((x, y) => x.index - y.index);
}
