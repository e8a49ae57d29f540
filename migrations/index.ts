import { Foundation1763780000000 } from './1763780000000-Foundation';
import { Cartography1763790000000 } from './1763790000000-Cartography';
import { PoisPathsImages1763800000000 } from './1763800000000-PoisPathsImages';

/** Every migration, in order. Listed explicitly so the app, the CLI and the tests load the same set. */
export const MIGRATIONS = [Foundation1763780000000, Cartography1763790000000, PoisPathsImages1763800000000];
