/**
 * Connector types: what a link between two floors is (issue 40). A floor link's type is, in this
 * order:
 * 1. its explicit `connector` field, when it names a type (null or absent: not given);
 * 2. the first of its tags naming one, case-insensitively, word by word (a tag is split at every
 *    character that is not a letter, so 'Stairs', 'staircase-B', 'wheelchair lift' and 'Lift_2'
 *    all name one): stairs ('stairs', 'stair', 'staircase', 'stairway', 'stairwell', 'steps'),
 *    elevator ('elevator', 'elevators', 'lift', 'lifts'), escalator ('escalator', 'escalators'),
 *    ramp ('ramp', 'ramps');
 * 3. otherwise `elevator` when the link is accessible and `stairs` when it is not: an untyped
 *    accessible floor change is taken for a lift, an inaccessible one for stairs.
 * A link between nodes of one floor is a walk and never a connector, whatever its tags say.
 */

export const CONNECTOR_TYPES = ['stairs', 'elevator', 'escalator', 'ramp'] as const;
export type ConnectorType = (typeof CONNECTOR_TYPES)[number];

const WORDS: ReadonlyMap<string, ConnectorType> = new Map<string, ConnectorType>([
  ['stairs', 'stairs'],
  ['stair', 'stairs'],
  ['staircase', 'stairs'],
  ['stairway', 'stairs'],
  ['stairwell', 'stairs'],
  ['steps', 'stairs'],
  ['elevator', 'elevator'],
  ['elevators', 'elevator'],
  ['lift', 'elevator'],
  ['lifts', 'elevator'],
  ['escalator', 'escalator'],
  ['escalators', 'escalator'],
  ['ramp', 'ramp'],
  ['ramps', 'ramp'],
]);

export function isConnectorType(value: unknown): value is ConnectorType {
  return typeof value === 'string' && (CONNECTOR_TYPES as readonly string[]).includes(value);
}

/** The connector type the tags name (the first tag naming one), or null. */
export function connectorFromTags(tags: readonly string[] | undefined): ConnectorType | null {
  if (!tags) return null;
  for (const tag of tags) {
    for (const word of tag.toLowerCase().split(/[^a-z]+/)) {
      const type = WORDS.get(word);
      if (type) return type;
    }
  }
  return null;
}

/** The connector type of a floor link: explicit, else from its tags, else by its accessibility (module comment). */
export function floorLinkConnector(link: { connector?: ConnectorType | null; tags?: readonly string[]; accessible?: boolean }): ConnectorType {
  if (isConnectorType(link.connector)) return link.connector;
  return connectorFromTags(link.tags) ?? ((link.accessible ?? true) ? 'elevator' : 'stairs');
}
