import { describe, expect, it } from 'vitest';
import { mqttTopicPrefix, splitOrganizationTopic } from './mqtt-topic-prefix';

describe('MQTT topic prefix', () => {
  const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
  it('is derived from the id, and a topic under it splits back into the organization and the gateway topic', () => {
    expect(mqttTopicPrefix(id.toUpperCase())).toBe(`org/${id}`);
    expect(splitOrganizationTopic(`org/${id}/ruuvi/aa/bb`)).toEqual({ organizationId: id, topic: 'ruuvi/aa/bb' });
  });
  it('refuses a topic outside the prefixes', () => {
    expect(splitOrganizationTopic(`org/${id}`)).toBeNull();
    expect(splitOrganizationTopic('org/not-a-uuid/ruuvi/aa/bb')).toBeNull();
    expect(splitOrganizationTopic(`other/${id}/ruuvi/aa/bb`)).toBeNull();
    expect(splitOrganizationTopic(`org/${id.toUpperCase()}/ruuvi/aa/bb`)).toBeNull();
  });
});
