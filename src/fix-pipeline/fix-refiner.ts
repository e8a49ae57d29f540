import { AcceptedFix, DeviceTrack } from '../positions/fix';
import { DeviceTrackState } from '../positions/device-track-states.repository';

/**
 * A stage a caller adds between the lock and the store (positions from scans: the tracker). It
 * sees each device's newest stored fix and stored tracker state, may replace each fix (same
 * index, device and time), and gives the states to keep; it may run again if the transaction
 * is retried, so it depends on nothing but what it is given.
 */
export interface FixRefiner {
  refine(
    fixes: readonly AcceptedFix[],
    previous: ReadonlyMap<string, DeviceTrack>,
    states: ReadonlyMap<string, DeviceTrackState>,
  ): { fixes: AcceptedFix[]; states: Map<string, DeviceTrackState> };
}
