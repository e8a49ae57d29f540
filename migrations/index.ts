import { Foundation1763780000000 } from './1763780000000-Foundation';
import { Cartography1763790000000 } from './1763790000000-Cartography';
import { PoisPathsImages1763800000000 } from './1763800000000-PoisPathsImages';
import { UsersGroupsAudit1763810000000 } from './1763810000000-UsersGroupsAudit';
import { BuildingRevisions1763820000000 } from './1763820000000-BuildingRevisions';
import { RealtimePositions1763840000000 } from './1763840000000-RealtimePositions';

/** Every migration, in order. Listed explicitly so the app, the CLI and the tests load the same set. */
export const MIGRATIONS = [Foundation1763780000000, Cartography1763790000000, PoisPathsImages1763800000000, UsersGroupsAudit1763810000000, BuildingRevisions1763820000000, RealtimePositions1763840000000];
