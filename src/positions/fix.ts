/** A device id is at most this long (contract 6.2). */
export const MAX_DEVICE_ID_LENGTH = 64;

/** A fix with its references checked and both coordinate systems filled in where a building is known. */
export interface AcceptedFix {
  /** Its place in the request's batch. */
  index: number;
  deviceId: string;
  /** The device code the fix gave ('' for none). */
  deviceCode: string;
  userId: string;
  time: number;
  buildingId: number | null;
  floorId: number | null;
  lat: number;
  lng: number;
  x: number | null;
  y: number | null;
  accuracy: number;
  yaw: number | null;
}

/** A device's newest stored fix: its row in `devices`, as every reader of the live picture sees it. */
export interface DeviceTrack {
  deviceId: string;
  code: string;
  userId: string | null;
  time: number;
  buildingId: number | null;
  floorId: number | null;
  lat: number;
  lng: number;
  x: number | null;
  y: number | null;
  accuracy: number | null;
  yaw: number | null;
}
