/** Where an example fix lands: a building's floor and a point on it. */
export interface ExamplePlace {
  buildingId: number;
  floorId: number;
  lat: number;
  lng: number;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * A command to paste in a terminal that reports one position now, as a device app would
 * (contract 6.2), with a positioning key. The time is the shell's clock, so the fix is fresh
 * whenever it is run.
 */
export function positionCurl(origin: string, apiKey: string, place: ExamplePlace | null, deviceId = 'my-first-device'): string {
  const where = place ? `"building_id":${place.buildingId},"floor_id":${place.floorId},"lat":${place.lat},"lng":${place.lng}` : '"lat":0,"lng":0';
  const body = `{"positions":[{"device_id":"${deviceId}","time":"'"$(date -u +%Y-%m-%dT%H:%M:%SZ)"'",${where},"accuracy":3}]}`;
  return `curl -X POST ${quote(`${origin}/api/v1/realtime/positions`)} -H ${quote(`X-API-KEY: ${apiKey}`)} -H 'Content-Type: application/json' -d '${body}'`;
}
