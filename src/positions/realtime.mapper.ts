/** A device's latest fix as the realtime read loads it; times already in their wire formats. */
export interface LatestFixRow {
  id: string;
  code: string;
  userId: string | null;
  /** `…SSSZ` */
  time: string;
  buildingId: number | null;
  floorId: number | null;
  levelHeight: number | null;
  lat: number;
  lng: number;
  x: number | null;
  y: number | null;
  accuracy: number;
  yaw: number | null;
  /** `…SSS+00:00` */
  createdAt: string;
  updatedAt: string;
  /** The hardware ids (JSON array) of the gateways that placed a tag's fix (`method: "gateways"`); absent for any other fix. */
  gatewaysUsed?: string;
}

/**
 * The realtime answer, its JSON text already encoded: one buffer, so that identical reads
 * arriving together can all be sent the same bytes (see RealtimePositionsService.list).
 */
export type RealtimePositionsJson = Buffer;
/**
 * Devices per piece of text. A 1,000-device answer is about 750 KB: as one string it would
 * land in V8's large-object space, which only a full collection frees; pieces of 100
 * devices stay young garbage, and only the buffer (outside the heap) is that large.
 */
const CHUNK_ROWS = 100;

const text = (value: string | null): string => (value === null ? 'null' : JSON.stringify(value));
/** Finite numbers only reach here (the ingest refuses the rest), so String() is their JSON. */
const number = (value: number | null): string => (value === null ? 'null' : String(value));

/**
 * The wire format of contract 6.1, which existing clients read byte for byte:
 * `[lat, lng]` (not GeoJSON order), camelCase `userId` and `devicesInfo`, both arrays always
 * present. Written straight to JSON text in one pass: for a building of 1,000 live devices
 * this is most of the request's cost, and building the objects first and letting the
 * framework stringify them cost half as much again.
 */
export function renderRealtimeJson(organizationId: string, rows: LatestFixRow[], poiOf: (row: LatestFixRow) => number | null): RealtimePositionsJson {
  return encode(renderRealtimeChunks(organizationId, rows, poiOf));
}

/** UTF-8 of the pieces, one after another, in a buffer of exactly their size. */
function encode(pieces: string[]): Buffer {
  const sizes = pieces.map((piece) => Buffer.byteLength(piece));
  const bytes = Buffer.allocUnsafe(sizes.reduce((sum, size) => sum + size, 0));
  let offset = 0;
  for (let i = 0; i < pieces.length; i++) offset += bytes.write(pieces[i], offset, sizes[i]);
  return bytes;
}

/**
 * One feature of the answer (a device's latest fix), as JSON text; the live stream's `position`
 * frames carry it too, with `properties.navigation` (JSON text) for a guided device.
 */
export function renderRealtimeFeature(row: LatestFixRow, poiId: number | null, navigation: string | null = null): string {
  const local = row.x === null || row.y === null ? 'null' : `[${row.x},${row.y}]`;
  const levelHeight = row.floorId === null ? 'null' : number(row.levelHeight ?? 0);
  return (
    `{"type":"Feature","id":${JSON.stringify(row.id)},"userId":${text(row.userId)},"geometry":{"type":"Point","coordinates":[${row.lat},${row.lng}]},` +
    `"properties":{"time":"${row.time}","yaw":${number(row.yaw)},"local_coordinates":${local},"floor_id":${number(row.floorId)},` +
    `"building_id":${number(row.buildingId)},"level_height":${levelHeight},"accuracy":${row.accuracy},"poi_id":${number(poiId)}` +
    `${row.gatewaysUsed === undefined ? '' : `,"method":"gateways","gateways_used":${row.gatewaysUsed}`}${navigation === null ? '' : `,"navigation":${navigation}`}}}`
  );
}

/** The JSON text of the answer, in pieces that concatenate to it. */
function renderRealtimeChunks(organizationId: string, rows: LatestFixRow[], poiOf: (row: LatestFixRow) => number | null): string[] {
  const organization = JSON.stringify(organizationId);
  const features: string[] = new Array(rows.length);
  const devices: string[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const id = JSON.stringify(row.id);
    const user = text(row.userId);
    features[i] = renderRealtimeFeature(row, poiOf(row));
    // Cartograph assigns devices to no group or building: the lists are there, empty.
    devices[i] =
      `{"id":${id},"code":${JSON.stringify(row.code)},"organization":${organization},"organization_id":${organization},"user":${user},"user_id":${user},` +
      `"groups":[],"group_ids":[],"buildings":[],"building_ids":[],"created_at":"${row.createdAt}","updated_at":"${row.updatedAt}"}`;
  }
  const chunks: string[] = ['{"type":"FeatureCollection","features":['];
  for (let start = 0; start < rows.length; start += CHUNK_ROWS) chunks.push((start > 0 ? ',' : '') + features.slice(start, start + CHUNK_ROWS).join(','));
  chunks.push('],"devicesInfo":[');
  for (let start = 0; start < rows.length; start += CHUNK_ROWS) chunks.push((start > 0 ? ',' : '') + devices.slice(start, start + CHUNK_ROWS).join(','));
  chunks.push(']}');
  return chunks;
}
