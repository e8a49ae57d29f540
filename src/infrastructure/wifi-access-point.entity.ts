import { Column, Entity } from 'typeorm';
import { PlacedTransmitter } from './transmitter.entity';

@Entity('wifi_access_points')
export class WifiAccessPoint extends PlacedTransmitter {
  /** Lower case `xx:xx:xx:xx:xx:xx`. */
  @Column({ type: 'varchar', length: 17 })
  bssid: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  ssid: string;

  /** MHz. */
  @Column({ type: 'integer', nullable: true })
  frequency: number | null;
}
