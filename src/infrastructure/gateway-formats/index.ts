/**
 * The pure parsing core of BLE gateway ingest (issue 39): gateway messages (ESPresense, Ruuvi Gateway, Minew,
 * Cartograph JSON) → observations (receiver, transmitter keys, RSSI, time), and tag identities → the keys they are
 * matched by. No server around it: the transports (MQTT broker, HTTP route), storage and locating are elsewhere.
 */
export { advertisedIds, hexBytes, MAX_ADVERTISEMENT_BYTES } from './advertisement';
export type { AdvertisedIds } from './advertisement';
export { parseCartograph } from './cartograph';
export { GATEWAY_FORMATS, gatewayTopic, parseGatewayMessage } from './dispatch';
export type { GatewayFormat, GatewayMessage } from './dispatch';
export { parseEspresense } from './espresense';
export {
  cartographTagKeys,
  eddystoneKey,
  espresenseKeys,
  ibeaconKey,
  identityKeys,
  macKey,
  matchesIdentity,
  normaliseEspresenseId,
  normaliseMac,
  normaliseUuid,
  observedKeys,
  parseTagIdentity,
} from './identity';
export type { ObservedTransmitter, TagIdentity, TagIdentityKey } from './identity';
export { parseMinew } from './minew';
export { DEFAULT_LIMITS, epochMs, MAX_RSSI, MIN_RSSI, normaliseHardwareId, recordTime } from './observation';
export type { Observation, ParsedMessage, ParseLimits, ParseResult, RejectedMessage } from './observation';
export { parseRuuviHttp, parseRuuviMqtt } from './ruuvi';
