/** The project's seeded random numbers (mulberry32) for specs of pure code that may not import the tracker. */
export { seededRandom } from '../../src/infrastructure/tracker/seeded-random';
