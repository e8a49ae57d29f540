import { describe, expect, it } from 'vitest';
import { readMqttConfig } from './mqtt.config';

describe('MQTT settings', () => {
  it("default to no broker and issue 39's limits", () => {
    expect(readMqttConfig({})).toEqual({
      port: null,
      host: null,
      tlsCertFile: null,
      tlsKeyFile: null,
      url: null,
      shareGroup: 'cartograph',
      maxMessageBytes: 256 * 1024,
      messagesPerSecond: 200,
      messageBurst: 1000,
      connectionsPerOrganization: 500,
      windowMs: 1500,
      observationRetentionHours: 24,
    });
  });

  it('read the port (0: any free one), the external URL, TLS as a pair', () => {
    expect(readMqttConfig({ MQTT_PORT: '0', MQTT_URL: 'mqtt://u:p@broker:1883' })).toMatchObject({ port: 0, url: 'mqtt://u:p@broker:1883' });
    expect(() => readMqttConfig({ MQTT_URL: 'http://broker' })).toThrow(/MQTT_URL/);
    expect(() => readMqttConfig({ MQTT_TLS_CERT_FILE: '/c.pem' })).toThrow(/go together/);
    expect(() => readMqttConfig({ MQTT_PORT: '70000' })).toThrow();
  });
});
