import { formatTimestamp } from '../common/time/timestamps';
import { BleBeacon } from './ble-beacon.entity';
import { BleResponseDto, WifiResponseDto } from './infrastructure.dto';
import { PlacedTransmitter } from './transmitter.entity';
import { WifiAccessPoint } from './wifi-access-point.entity';

function placed(row: PlacedTransmitter) {
  return {
    id: row.id,
    floor_id: row.floorId,
    lat: row.latitude,
    lng: row.longitude,
    x: row.x,
    y: row.y,
    created_at: formatTimestamp(row.createdAt),
    updated_at: formatTimestamp(row.updatedAt),
  };
}

export function toWifiResponse(row: WifiAccessPoint): WifiResponseDto {
  const { id, ...rest } = placed(row);
  return { id, bssid: row.bssid, ssid: row.ssid, frequency: row.frequency, ...rest };
}

export function toBleResponse(row: BleBeacon): BleResponseDto {
  const { id, ...rest } = placed(row);
  return { id, uuid: row.uuid, major: row.major, minor: row.minor, tx_power: row.txPower, battery: row.battery, ...rest };
}
