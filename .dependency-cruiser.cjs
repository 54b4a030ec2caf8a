/**
 * The layers of docs/architecture.md ("Layers"), checked on every `npm run check`. There is no
 * exception list: a rule that does not hold is fixed in the code.
 *
 * Server, from the top: the composition root (app.ts, main.ts, cli/) → front doors (modules/,
 * webdav/, http/, jobs.ts) → vfs/ (every rule of a change) → storage/ (the drivers) → errors/, lib/,
 * db/, config/ at the bottom. Web: app/ → features/ (each only through another's index.ts) →
 * components/, lib/, config/.
 */
const server = 'packages/server/src/';
const web = 'packages/web/src/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No circles: a file never reaches itself through its imports (types included).',
      from: { path: '^packages/' },
      to: { circular: true },
    },
    {
      name: 'only-vfs-touches-drivers',
      severity: 'error',
      comment: 'Front doors reach storage through vfs/ alone (docs/architecture.md "The mutation path").',
      from: { path: `^${server}`, pathNot: [`^${server}(vfs|storage)/`] },
      to: { path: `^${server}storage/` },
    },
    {
      name: 'drivers-stay-below',
      severity: 'error',
      comment: 'Drivers know nothing of the vfs, the front doors or HTTP plumbing.',
      from: { path: `^${server}storage/` },
      to: { path: `^${server}(vfs|modules|webdav|http|jobs\\.ts|app\\.ts|main\\.ts|cli)` },
    },
    {
      name: 'vfs-stays-below-doors',
      severity: 'error',
      comment: 'The vfs is called by the front doors and never calls back up.',
      from: { path: `^${server}vfs/` },
      to: { path: `^${server}(modules|webdav|http|jobs\\.ts|app\\.ts|main\\.ts|cli)` },
    },
    {
      name: 'bottom-stays-bottom',
      severity: 'error',
      comment: 'errors/, lib/, db/ and config/ are used by every layer and use none of them.',
      from: { path: `^${server}(errors|lib|db|config)/` },
      to: { path: `^${server}(vfs|storage|modules|webdav|http|jobs\\.ts|app\\.ts|main\\.ts|cli)` },
    },
    {
      name: 'web-features-through-index',
      severity: 'error',
      comment: "A feature uses another feature only through that feature's index.ts.",
      from: { path: `^${web}features/([^/]+)/` },
      to: {
        path: `^${web}features/[^/]+/`,
        pathNot: [`^${web}features/$1/`, `^${web}features/[^/]+/index\\.tsx?$`],
      },
    },
    {
      name: 'web-shared-stays-below-features',
      severity: 'error',
      comment: 'components/, lib/ and config/ serve every feature and import none.',
      from: { path: `^${web}(components|lib|config)/` },
      to: { path: `^${web}(features|app)/` },
    },
    {
      name: 'no-test-code-in-src',
      severity: 'error',
      comment: 'Product code never imports a test file or test support.',
      from: { path: '^packages/[^/]+/src/', pathNot: '\\.test\\.tsx?$' },
      to: { path: ['\\.test\\.tsx?$', '^packages/[^/]+/test/'] },
    },
    {
      name: 'no-test-only-code-in-server-src',
      severity: 'error',
      comment:
        'Every file of the server under src/ is reached from an entry point; test-only code lives in test/.',
      from: { path: `^${server}(main\\.ts|cli/[^/]+\\.ts)$` },
      to: {
        path: `^${server}`,
        pathNot: [`^${server}(main\\.ts|cli/)`, '\\.test\\.ts$', '\\.d\\.ts$'],
        reachable: false,
      },
    },
    {
      name: 'no-test-only-code-in-web-src',
      severity: 'error',
      comment: 'Every file of the web app under src/ is reached from main.tsx or the service worker.',
      from: { path: `^${web}(main\\.tsx|sw\\.ts)$` },
      to: {
        path: `^${web}`,
        pathNot: [`^${web}(main\\.tsx|sw\\.ts)$`, '\\.test\\.tsx?$', '\\.d\\.ts$'],
        reachable: false,
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '/dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
