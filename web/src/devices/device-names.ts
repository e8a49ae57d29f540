import { useEffect, useState } from 'preact/hooks';
import { getAll } from '../api';
import { type Device, deviceLabel } from '../model';

/**
 * The names of devices as the device list reads them (GET /devices), for every view that shows
 * a device by id (the live map, its tooltip, fence occupants, events): fed by the device list,
 * the device panel and a rename, told to the other tabs, and read again for a building while
 * its map is open, so a renamed device shows its new name everywhere.
 */
const names = new Map<string, string>();
const listeners = new Set<() => void>();
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('cartograph-devices') : null;

function store(devices: ReadonlyArray<Pick<Device, 'id' | 'name'>>): boolean {
  let changed = false;
  for (const d of devices) {
    if (names.get(d.id) === d.name) continue;
    names.set(d.id, d.name);
    changed = true;
  }
  if (changed) listeners.forEach((l) => l());
  return changed;
}

/** Devices just read from the API (a list, a device, a rename). */
export function rememberDevices(devices: ReadonlyArray<Pick<Device, 'id' | 'name'>>): void {
  store(devices);
}

/** A rename saved here: every view in this tab and in the others shows the new name. */
export function deviceRenamed(device: Pick<Device, 'id' | 'name'>): void {
  store([device]);
  channel?.postMessage({ id: device.id, name: device.name });
}
channel?.addEventListener('message', (event: MessageEvent) => {
  const d = event.data as { id?: unknown; name?: unknown };
  if (typeof d?.id === 'string' && typeof d.name === 'string') store([{ id: d.id, name: d.name }]);
});

/** The names of the devices last seen in a building (the map's devices). */
export async function loadBuildingDeviceNames(buildingId: string | number, signal?: AbortSignal): Promise<void> {
  store(await getAll<Device>(`/devices?building_ids=${encodeURIComponent(String(buildingId))}`, signal));
}

/** A device's display name by id, from what is known of its name. */
export const deviceName = (id: string): string => deviceLabel({ id, name: names.get(id) ?? '' });

/** deviceName, for a component that shows it again when a name changes. */
export function useDeviceName(): (id: string) => string {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const changed = () => setVersion((n) => n + 1);
    listeners.add(changed);
    return () => void listeners.delete(changed);
  }, []);
  return deviceName;
}
