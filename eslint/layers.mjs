// The layering of src/ (docs/architecture.md draws it): each top-level folder of src/ and the
// folders it may import. A folder may always import itself. The lint rule folder-layers
// enforces it; src/architecture.spec.ts checks that docs/architecture.md states the same.
export const LAYERS = {
  config: [],
  common: ['config'],
  database: ['config', 'common'],
  access: ['common'],
  audit: ['access', 'common'],
  health: ['access', 'common'],
  version: ['access', 'common'],
  images: ['access', 'common', 'config', 'database'],
  dashboard: ['access', 'common', 'config'],
  cartography: ['access', 'common', 'config', 'database', 'images'],
  users: ['access', 'audit', 'cartography', 'common', 'config', 'database'],
  auth: ['access', 'audit', 'common', 'config', 'database', 'users'],
  organizations: ['access', 'common', 'database', 'users'],
  setup: ['common', 'config', 'organizations', 'users'],
  idempotency: ['access', 'common', 'config', 'database'],
  positions: ['access', 'cartography', 'common', 'config', 'database'],
  geofencing: ['access', 'cartography', 'common', 'config', 'database', 'organizations', 'positions'],
  // Guided devices (issue 40): routes from cartography's directions, fixes as positions keeps them.
  navigation: ['access', 'cartography', 'common', 'config', 'database', 'positions'],
  'fix-pipeline': ['access', 'common', 'config', 'database', 'geofencing', 'navigation', 'positions'],
  // devices reads tag identities with infrastructure's pure gateway-formats (issue 39).
  devices: ['access', 'common', 'database', 'geofencing', 'infrastructure', 'navigation', 'positions'],
  reports: ['access', 'cartography', 'common', 'config', 'database', 'positions'],
  delivery: ['access', 'audit', 'auth', 'cartography', 'common', 'config', 'database', 'geofencing', 'navigation', 'organizations', 'positions'],
  infrastructure: ['access', 'cartography', 'common', 'config', 'database', 'fix-pipeline', 'positions'],
  // The composition roots: they wire every feature together.
  'app.module': '*',
  'app.setup': '*',
  main: '*',
  cli: '*',
};

// Pure code: plain TypeScript with no server around it (no Nest, no database, no other folder of
// src/), so it can be read, tested and benchmarked alone, and the dashboard can bundle it. Each
// entry is a folder or a file of src/ (without `.ts`; the file's `.spec.ts` belongs to it) and what
// else it may import: other pure entries (`pure`), single pure files of src/ (`files`, without
// `.ts`), and npm packages by name (`packages`). Spec files inside may import SPEC_IMPORTS too.
export const PURE = {
  'geofencing/engine': { pure: [], files: [], packages: ['flatbush'] },
  'infrastructure/estimator': { pure: [], files: [], packages: [] },
  // The tracker runs on the estimator's likelihood and types.
  'infrastructure/tracker': { pure: ['infrastructure/estimator'], files: [], packages: [] },
  // The Kalman filter of reported fixes (issue 37).
  'fix-pipeline/reported-fix-filter': { pure: [], files: [], packages: [] },
  // The parsing core of BLE gateway ingest: gateway formats → observations, tag identities → keys (issue 39).
  'infrastructure/gateway-formats': { pure: [], files: [], packages: [] },
  // The routing core of wayfinding: graph, routes and indications over a building's paths (issue 40).
  'cartography/paths/router': { pure: [], files: [], packages: [] },
};

/** What a spec file inside a pure entry may import besides: the test runner, property tests and test/support/. */
export const SPEC_IMPORTS = { packages: ['vitest', 'fast-check'], folders: ['test/support'] };

// Folders inside a layer that never import one another, one way: `from` never imports `to`.
// `typeOnly` names the files of `from` that may still import a type (`import type`) from one
// file of `to`, until the type moves below both.
export const NEVER = [
  {
    from: 'geofencing/state',
    to: 'geofencing/events',
    // insertEvents writes the wire body (GeofenceEventBody, contract 7.3) the recorder built; the
    // body belongs with the events. Moving it below both (e.g. geofencing/event-body.ts) removes this.
    typeOnly: { 'geofencing/state/geofence-state.repository': ['geofencing/events/geofence-event'] },
  },
];

// The files of src/ that the dashboard (web/, bundled by Vite) may import: pure code it shares
// with the server, without `.ts`. Anything else of src/ is an error in web/.
export const WEB_IMPORTS = ['common/csv/csv-cells', 'common/geometry/cartesian', 'geofencing/engine/rules', 'reports/heatmaps/heatmap-grid'];
