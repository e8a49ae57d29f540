import { formatTimestamp } from '../common/time/timestamps';
import { KnownTransmitter, transmitterKey } from './estimator/transmitter';
import type { FloorStatistics } from './estimator/radio-model';
import { CalibratedSite, FloorRadioState } from './radio-state';
import { ReferencePoint } from './reference-point.entity';
import { parseStoredReadings } from './reference-point-readings';
import { FloorRadioModelDto, RadioModelResponseDto, ReferencePointResponseDto } from './reference-points.dto';

const rounded = (value: number, digits: number) => Number(value.toFixed(digits));

export function toReferencePointResponse(row: ReferencePoint): ReferencePointResponseDto {
  const readings = parseStoredReadings(row.readings);
  return {
    id: row.id,
    floor_id: row.floorId,
    x: row.x,
    y: row.y,
    lat: row.latitude,
    lng: row.longitude,
    ble: readings.ble,
    wifi: readings.wifi,
    created_at: formatTimestamp(row.createdAt),
    updated_at: formatTimestamp(row.updatedAt),
  };
}

export function toRadioModelResponse(buildingId: number, site: CalibratedSite, floorId?: number): RadioModelResponseDto {
  const floors = [...site.floors.values()].filter((floor) => floorId === undefined || floor.floorId === floorId).sort((a, b) => a.floorId - b.floorId);
  return { building_id: buildingId, floors: floors.map((floor) => toFloorRadioModel(floor, site.registered)) };
}

function toFloorRadioModel(floor: FloorRadioState, registered: ReadonlyMap<string, KnownTransmitter>): FloorRadioModelDto {
  const transmitters = [...registered.values()]
    .filter((transmitter) => transmitter.floorId === floor.floorId)
    .sort((a, b) => a.kind.localeCompare(b.kind) || a.id - b.id)
    .map((transmitter) => {
      const offset = floor.model.offsets.get(transmitterKey(transmitter)) ?? 0;
      return { type: transmitter.kind, id: transmitter.id, offset_db: rounded(offset, 2), reference_rssi: rounded(transmitter.referenceRssi + offset, 2) };
    });
  const references = floor.references;
  return {
    floor_id: floor.floorId,
    method: floor.method,
    exponent: rounded(floor.model.exponent, 3),
    exponent_fit: {
      state: floor.model.exponentFit?.state ?? 'fitted',
      reason: floor.model.exponentFit?.reason ?? null,
      sd: rounded(floor.model.exponentFit?.sd ?? 0, 3),
    },
    scanner: scannerOf(floor.running),
    shadowing_db: { ble: rounded(floor.model.shadowingDb.ble, 2), wifi: rounded(floor.model.shadowingDb.wifi, 2) },
    scans: Math.round(floor.running.scans),
    updated_at: floor.runningUpdatedAt ? formatTimestamp(floor.runningUpdatedAt) : null,
    reference_points:
      references && references.scans > 0
        ? {
            points: references.points,
            scans: references.scans,
            model_median_error_m: references.model ? rounded(references.model.median, 2) : null,
            fingerprint_median_error_m: references.fingerprint ? rounded(references.fingerprint.median, 2) : null,
            radio_map_median_error_m: references.map ? rounded(references.map.median, 2) : null,
          }
        : null,
    transmitters,
  };
}

/** What the running calibration's scans say of their scanners; null before any. */
function scannerOf(running: FloorStatistics): FloorRadioModelDto['scanner'] {
  const scanner = running.scanner;
  if (!scanner || scanner.maxReadings === 0 || running.scans <= 0) return null;
  return {
    weakest_rssi: { ble: scanner.weakest.ble, wifi: scanner.weakest.wifi },
    max_readings: scanner.maxReadings,
    at_max_share: rounded(Math.min(1, scanner.atMax / running.scans), 3),
  };
}
