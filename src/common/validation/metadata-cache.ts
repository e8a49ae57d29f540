import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

type Storage = ReturnType<typeof getMetadataStorage>;
type Lookup = Storage['getTargetValidationMetadatas'];
type Grouping = Storage['groupByPropertyName'];

const CACHED = Symbol('cartograph.validationMetadataCache');

/**
 * Memoises class-validator's metadata lookups, which every validation of every object repeats.
 *
 * `getTargetValidationMetadatas` walks every registered class on each call, to find the
 * target's ancestors (class-validator issue 2686, open). It is O(classes in the app) per
 * validated object. In this server's profile of `POST /buildings/{id}/directions`, the
 * validation pipe cost about as much CPU as routing over a 10,000-node graph.
 *
 * A class's own and inherited metadata are registered when its module loads, before any object
 * of it can be validated. So the answer for a target and options never changes afterwards. For
 * safety, the cache is cleared when metadata is added anyway (a class loaded later, a test that
 * registers a schema). The grouping by property is memoised on the answer's identity. Neither
 * answer is mutated by the validator (ValidationExecutor only reads them). Installed once, on
 * the process's one metadata storage.
 */
export function cacheValidationMetadata(storage: Storage = getMetadataStorage()): void {
  const marked = storage as Storage & { [CACHED]?: true };
  if (marked[CACHED]) return;
  marked[CACHED] = true;

  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const grouping: Grouping = storage.groupByPropertyName.bind(storage);
  const add = storage.addValidationMetadata.bind(storage);
  let byTarget = new WeakMap<object, Map<string, ValidationMetadata[]>>();
  let bySchema = new Map<string, ValidationMetadata[]>();
  let grouped = new WeakMap<ValidationMetadata[], Record<string, ValidationMetadata[]>>();

  storage.addValidationMetadata = (metadata: ValidationMetadata): void => {
    byTarget = new WeakMap();
    bySchema = new Map();
    grouped = new WeakMap();
    add(metadata);
  };

  storage.getTargetValidationMetadatas = (targetConstructor, targetSchema, always, strictGroups, groups) => {
    const key = `${targetSchema}\u0000${always}\u0000${strictGroups}\u0000${groups === undefined ? '\u0001' : groups.join('\u0000')}`;
    // A constructor is the usual target. A schema name (a string) is kept in a map of its own.
    const perTarget = typeof targetConstructor === 'function' ? (byTarget.get(targetConstructor) ?? byTarget.set(targetConstructor, new Map()).get(targetConstructor)!) : bySchema;
    const entry = typeof targetConstructor === 'function' ? key : `${String(targetConstructor)}\u0000${key}`;
    let answer = perTarget.get(entry);
    if (!answer) {
      answer = lookup(targetConstructor, targetSchema, always, strictGroups, groups);
      perTarget.set(entry, answer);
    }
    return answer;
  };

  storage.groupByPropertyName = (metadata: ValidationMetadata[]) => {
    let answer = grouped.get(metadata);
    if (!answer) {
      answer = grouping(metadata);
      grouped.set(metadata, answer);
    }
    return answer;
  };
}
