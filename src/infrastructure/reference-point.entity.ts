import { Column, Entity } from 'typeorm';
import { PlacedTransmitter } from './transmitter.entity';

/**
 * A scan an installer took at a known position of a floor: what positions from scans learn the
 * floor's radio model from, and fingerprint with. Placed like a transmitter (x/y and lat/lng).
 */
@Entity('reference_points')
export class ReferencePoint extends PlacedTransmitter {
  /** JSON `{"ble":[{uuid,major,minor,rssi}],"wifi":[{bssid,rssi}]}`, identifiers normalised. */
  @Column({ type: 'text' })
  readings: string;
}
