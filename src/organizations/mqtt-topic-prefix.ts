/** The root of every organization's topics on an external broker. */
export const MQTT_ORGANIZATIONS_ROOT = 'org';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * An organization's MQTT topic prefix on an external broker (issue 39): derived from its id, so it is unique and
 * stable with nothing stored, and one wildcard subscription (`org/#`) covers organizations created later.
 */
export function mqttTopicPrefix(organizationId: string): string {
  return `${MQTT_ORGANIZATIONS_ROOT}/${organizationId.toLowerCase()}`;
}

/** A topic under an organization's prefix → the organization and the rest (a gateway topic), or null. */
export function splitOrganizationTopic(topic: string): { organizationId: string; topic: string } | null {
  const [root, organizationId, ...rest] = topic.split('/');
  if (root !== MQTT_ORGANIZATIONS_ROOT || organizationId === undefined || !UUID.test(organizationId) || rest.length === 0) return null;
  return { organizationId, topic: rest.join('/') };
}
