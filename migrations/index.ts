import { Foundation1763780000000 } from './1763780000000-Foundation';
import { Cartography1763790000000 } from './1763790000000-Cartography';

/** Every migration, in order. Listed explicitly so the app, the CLI and the tests load the same set. */
export const MIGRATIONS = [Foundation1763780000000, Cartography1763790000000];
