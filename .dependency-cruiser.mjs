// Import cycles fail `npm run lint`, type-only ones too: a cycle makes load order decide what a module
// sees at import time, and a type-only one ties files that should read alone. ESLint's import plugins
// skip type imports, so dependency-cruiser judges the production code (tests may cycle).
/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Move what both files need into a third file both import (see the lazy UI parts and accounts-type.ts).',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.test\\.tsx?$', '/test-support/', '^bench/next-fixture/', '(^|/)dist/', 'node_modules'] },
    // `import type` and type-only specifiers count as dependencies.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // `@tern/…` (the workspace packages' exports maps) resolves to the sources, as for tsc (its `source` condition).
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['source', 'import', 'default'] },
  },
};
