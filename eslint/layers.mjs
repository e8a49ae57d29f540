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
  'fix-pipeline': ['access', 'common', 'config', 'database', 'geofencing', 'positions'],
  devices: ['access', 'common', 'database', 'geofencing', 'positions'],
  reports: ['access', 'cartography', 'common', 'config', 'database', 'positions'],
  delivery: ['access', 'audit', 'auth', 'cartography', 'common', 'config', 'database', 'geofencing', 'organizations', 'positions'],
  infrastructure: ['access', 'cartography', 'common', 'config', 'database', 'fix-pipeline', 'positions'],
  // The composition roots: they wire every feature together.
  'app.module': '*',
  'app.setup': '*',
  main: '*',
  cli: '*',
};
