// ESLint (flat config): typescript-eslint with type information, so promises that are dropped or
// misused fail the lint, and React's hook rules for the app. Formatting is Prettier's job.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * A site imports the platform through the packages' exports maps only (`@tern/site/…`, `@tern/runtime/…`,
 * `@tern/ui/…`, `@tern/shared/…`), so everything else may change under it: never a path into the
 * platform's folders, never a package's src/ or dist/ by path, never a service or the build tooling.
 * Each module directly: a barrel would pull the whole kit into every page's first load.
 */
const PLATFORM_INTERNALS = {
  regex: '(^|/)(packages|services)/|^@tern/[^/]+/(src|dist)/|^@tern/(gateway|renderer|image|icons|cli|vite-plugin)(/|$)',
  message: 'A site uses the platform through the exports of @tern/site, @tern/runtime, @tern/ui and @tern/shared.',
};

/** The platform knows no site: no app folder, no app package. */
const NO_SITE = {
  group: ['**/apps/**', 'cookbook', 'cookbook/**'],
  message: 'The platform knows no site: a site hands itself over with defineSite().',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/next-fixture/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        // The same three programs `npm run typecheck` checks: services, tests, the browser app.
        project: ['./tsconfig.json', './tsconfig.tests.json', './packages/runtime/tsconfig.test.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // Control characters in regular expressions are how the code refuses them in input.
      'no-control-regex': 'off',
    },
  },
  {
    // Tool configs belong to no TypeScript program: linted without type information.
    files: ['vitest.config.ts', 'packages/vite-plugin/vite.config.ts'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { parserOptions: { project: false, program: null } },
  },
  // Where code runs shows in the folder, and the imports keep it so (docs/contributing.md).
  ...[
    {
      files: ['packages/runtime/src/shared/**', 'packages/runtime/src/server/**'],
      denied: ['**/browser/**', '../browser/**', '**/app/**'],
      message: "The runtime's shared/ and server/ run on the server: no browser-only runtime, no app module (the entries pass the app in).",
    },
    {
      files: ['packages/runtime/src/browser/**'],
      denied: ['**/app/**'],
      message: 'The runtime never imports the app: the entries pass routes and middleware in.',
    },
    {
      files: ['services/renderer/src/**', 'packages/runtime/src/entry-server.tsx'],
      denied: ['**/browser/**'],
      message: 'Server code never loads the browser-only runtime.',
    },
    {
      files: ['packages/runtime/src/app/**', 'packages/ui/src/**'],
      denied: ['**/server/**', '@tern/renderer', '@tern/renderer/**'],
      message: "The app and the UI kit run in the browser too: server code stays out of them (shared rules live in the runtime's shared/).",
    },
  ].map(({ files, denied, message }) => ({
    files,
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: denied, message }] }] },
  })),
  // Production code holds no test helper: those live in tests/support/ and the packages'
  // src/test-support/, which the production build (and the Docker images) do not have. The platform
  // knows no site (NO_SITE), and a site reaches the platform only through the packages' exports
  // (PLATFORM_INTERNALS above), so either can change alone. A separate rule name, so the folder
  // boundaries above still apply to the same files.
  ...[
    {
      files: ['packages/*/src/**/*.{ts,tsx}', 'packages/*/*.ts', 'services/*/src/**/*.{ts,tsx}', 'bench/**/*.ts'],
      denied: [NO_SITE],
    },
    {
      files: ['apps/*/src/**/*.{ts,tsx}'],
      denied: [PLATFORM_INTERNALS],
    },
    {
      files: ['apps/*/src/app/**/*.{ts,tsx}'],
      denied: [
        PLATFORM_INTERNALS,
        { group: ['**/server/**'], message: "The site's app runs in the browser too: its server code stays out of it." },
      ],
    },
  ].map(({ files, denied }) => ({
    files,
    ignores: ['**/*.test.{ts,tsx}', '**/*.contract.ts', '**/test-support/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['vitest', '**/tests/support/**', '**/test-support/**'],
              message: 'Test helpers stay out of production code: tests/support/, src/test-support/.',
            },
            ...denied,
          ],
        },
      ],
    },
  })),
  {
    files: [
      'packages/runtime/src/**/*.tsx',
      'packages/ui/src/**/*.tsx',
      'apps/*/src/app/**/*.tsx',
      'tests/e2e/fixtures/**/*.tsx',
      'tests/fixtures/**/*.tsx',
    ],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // The site uses its own framework: API calls through runtime/http-client.ts (retries and the
    // error shape of docs/spec.md §7), moves through runtime/navigate.ts.
    files: ['packages/runtime/src/app/**/*.{ts,tsx}', 'packages/ui/src/**/*.{ts,tsx}', 'apps/*/src/app/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Call the API through `http` from runtime/http-client.ts.' }],
      'no-restricted-properties': [
        'error',
        { object: 'window', property: 'fetch', message: 'Call the API through `http` from runtime/http-client.ts.' },
        { object: 'globalThis', property: 'fetch', message: 'Call the API through `http` from runtime/http-client.ts.' },
      ],
      'no-restricted-imports': [
        'error',
        { name: 'react-router', importNames: ['useNavigate', 'redirect'], message: 'Move with `navigate()` from runtime/navigate.ts.' },
      ],
    },
  },
);
