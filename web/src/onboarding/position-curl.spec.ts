/// <reference types="node" />
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { positionCurl } from './position-curl';

describe('the example position command', () => {
  it('is one shell line whose body is JSON with the time of the moment it runs', () => {
    const line = positionCurl('http://127.0.0.1:3000', 'key-1', { buildingId: 3, floorId: 7, lat: 42.88, lng: -8.54 });
    expect(line).toContain("-H 'X-API-KEY: key-1'");
    // The shell expands the time; what curl would send is valid JSON.
    const data = execFileSync('sh', ['-c', `printf '%s' ${line.slice(line.indexOf("-d '") + 3)}`]).toString();
    const body = JSON.parse(data) as { positions: Array<Record<string, unknown>> };
    expect(body.positions[0]).toMatchObject({ device_id: 'my-first-device', building_id: 3, floor_id: 7, lat: 42.88, lng: -8.54, accuracy: 3 });
    expect(Math.abs(Date.parse(String(body.positions[0].time)) - Date.now())).toBeLessThan(5000);
  });
});
