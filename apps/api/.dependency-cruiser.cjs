// The API's layering, checked by `pnpm lint` (dependency-cruiser). docs/architecture.md shows the same table.
// Each folder of src/ may import only itself, the folders listed here, contracts and packages.
// Every folder may use `config` and `common` (the ground floor), which import no feature.
const { baseRules, options } = require('../../dependency-cruiser.base.cjs');
const MAY_IMPORT = {
  config: [],
  common: [],
  database: [],
  swagger: [],
  health: ['database'],
  // the built web app, served precompressed on the API's port.
  web: [],
  users: [],
  verification: ['swagger'],
  models: ['swagger'],
  'site-config': ['swagger'],
  analytics: ['verification', 'swagger'],
  // database: the verify:ledger command opens MONGODB_URI or the embedded database in DATA_DIR.
  power: ['users', 'database', 'swagger'],
  'custom-models': ['models', 'verification', 'swagger'],
  auth: ['users', 'power', 'verification', 'swagger'],
  generation: ['models', 'custom-models', 'power'],
  stories: ['custom-models', 'power', 'swagger'],
  tasks: ['generation', 'models', 'power', 'stories', 'swagger'],
  // archives: a load holds the story's turn (play's TurnParking), as a change of branch does.
  archives: ['stories', 'play', 'swagger'],
  // lore reacts to archives' events (archive.events.ts) and imports nothing else of archives (rule below).
  lore: ['generation', 'stories', 'archives', 'swagger'],
  play: ['generation', 'models', 'power', 'stories', 'tasks', 'lore', 'verification', 'swagger'],
  // branches move a story between its lines through the owners of what a line holds (see branches.module.ts).
  branches: ['stories', 'play', 'tasks', 'swagger'],
  // pictures react to play's events (turn.events.ts) and import nothing else of play (rule below).
  pictures: ['generation', 'models', 'power', 'stories', 'play', 'swagger'],
  // files: an export by story id reads the story's text as its reader reads it.
  files: ['pictures', 'stories', 'swagger'],
};

const GROUND = { config: [], common: ['config'] };

const layerRules = Object.entries(MAY_IMPORT).map(([folder, allowed]) => {
  const own = [folder, ...(GROUND[folder] ?? ['config', 'common']), ...allowed];
  return {
    name: `layers-${folder}`,
    comment: `src/${folder} may import only ${own.filter((f) => f !== folder).join(', ') || 'nothing of the app'} (see docs/architecture.md)`,
    severity: 'error',
    from: { path: `^src/${folder}/` },
    to: { path: '^src/', pathNot: `^src/(${own.join('|')})/` },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...baseRules,
    {
      name: 'unknown-folder',
      comment: 'Every folder of src/ has a place in the layering (MAY_IMPORT in .dependency-cruiser.cjs).',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: `^src/(${Object.keys(MAY_IMPORT).join('|')})/` },
      to: {},
    },
    ...layerRules,
    {
      name: 'models-stay-with-their-owner',
      comment:
        "A collection's schema (its mongoose model) is used only in the folder that owns the collection; other features " +
        'go through its repository (importing the document type is fine).',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { path: '^src/[^/]+/[^/]+\\.schema\\.ts$', pathNot: '^src/$1/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'only-events-upward',
      comment: 'Pictures react to play through its events (play/*.events.ts), never by calling it.',
      severity: 'error',
      from: { path: '^src/pictures/' },
      to: { path: '^src/play/', pathNot: '^src/play/[^/]+\\.events\\.ts$' },
    },
    {
      name: 'lore-follows-archives-by-events',
      comment: 'Lore reacts to archives through their events (archives/*.events.ts), never by calling them.',
      severity: 'error',
      from: { path: '^src/lore/' },
      to: { path: '^src/archives/', pathNot: '^src/archives/[^/]+\\.events\\.ts$' },
    },
    {
      name: 'app-root-only-from-main',
      comment: 'The app root (app.module, app.factory, main) is imported by nothing in a feature.',
      severity: 'error',
      from: { path: '^src/[^/]+/' },
      to: { path: '^src/[^/]+\\.ts$' },
    },
    {
      name: 'app-not-to-dev-dep',
      comment:
        "App code imports only the package's dependencies (type imports aside): the image installs no devDependencies " +
        '(`pnpm deploy --prod` in the Dockerfile), so a devDependency the app loads stops it at start.',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.spec\\.ts$' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-test-code-in-app',
      comment: 'App code does not import tests (unit specs beside the code may use test/support).',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^(test|bench)/' },
    },
  ],
  // Packages stay in the graph as leaves (not followed), for app-not-to-dev-dep.
  options: { ...options, exclude: { path: '(^|/)dist/' } },
};
