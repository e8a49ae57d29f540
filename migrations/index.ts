import { Foundation1763780000000 } from './1763780000000-Foundation';

/** Every migration, in order. Listed explicitly so the app, the CLI and the tests load the same set. */
export const MIGRATIONS = [Foundation1763780000000];
