// ESLint (flat config): typescript-eslint with type information, so promises that are dropped or
// misused fail the lint, and React's hook rules for the app. Formatting is Prettier's job.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * A site imports the platform's public modules only, so the rest of services/ may change under it:
 * site-api/ (its definitions, server.ts), runtime/shared/ (the page contract, navigation, the HTTP
 * client: Nuxt's composables) and app/components/ui/ (the UI kit), and lib/. Each module directly:
 * a barrel would pull the whole kit into every page's first load.
 */
const PLATFORM_INTERNALS = {
  regex: '(^|/)services/(?!renderer/src/(site-api|runtime/shared|app/components/ui)/)',
  message: 'A site uses the platform through services/renderer/src/{site-api,runtime/shared,app/components/ui}/ and lib/.',
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
      denied: ['**/runtime/client/**', '../client/**', '**/app/**'],
      message: 'runtime/shared and runtime/server run on the server: no browser-only runtime, no app module (the entries pass the app in).',
    },
    {
      files: ['packages/runtime/src/browser/**'],
      denied: ['**/app/**'],
      message: 'The runtime never imports the app: the entries pass routes and middleware in.',
    },
    {
      files: ['services/renderer/src/**', 'packages/runtime/src/entry-server.tsx'],
      denied: ['**/runtime/client/**'],
      message: 'Server code never loads the browser-only runtime.',
    },
    {
      files: ['services/renderer/src/app/**'],
      denied: ['**/server/**'],
      message: 'The app runs in the browser too: server code stays out of it (shared rules live in app/ or runtime/shared/).',
    },
  ].map(({ files, denied, message }) => ({
    files,
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: denied, message }] }] },
  })),
  // Production code holds no test helper: those live in tests/support/, which the production build
  // (and the Docker image, which copies no tests/) does not have. The platform knows no site, and a
  // site reaches the platform only through its public modules (PLATFORM_INTERNALS above), so either
  // can change alone. A separate rule name, so the folder boundaries above still apply to the same files.
  ...[
    {
      files: ['lib/**/*.{ts,tsx}', 'services/*/src/**/*.{ts,tsx}', 'scripts/**/*.ts', 'bench/**/*.ts'],
      denied: [{ group: ['**/site/**'], message: 'The platform knows no site: a site hands itself over with defineSite().' }],
    },
    {
      files: ['site/**/*.{ts,tsx}'],
      denied: [PLATFORM_INTERNALS],
    },
    {
      files: ['apps/cookbook/src/app/**/*.{ts,tsx}'],
      denied: [
        PLATFORM_INTERNALS,
        { group: ['**/server/**'], message: "The site's app runs in the browser too: its server code stays out of it." },
      ],
    },
  ].map(({ files, denied }) => ({
    files,
    ignores: ['**/*.test.{ts,tsx}', '**/*.contract.ts', 'site/test/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['vitest', '**/tests/support/**'], message: 'Test helpers stay out of production code: tests/support/.' },
            ...denied,
          ],
        },
      ],
    },
  })),
  {
    files: [
      'services/renderer/src/app/**/*.tsx',
      'packages/runtime/src/**/*.tsx',
      'services/renderer/src/entry-*.tsx',
      'apps/cookbook/src/app/**/*.tsx',
      'tests/e2e/fixtures/**/*.tsx',
      'tests/fixtures/**/*.tsx',
    ],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // The site uses its own framework: API calls through runtime/http-client.ts (retries and the
    // error shape of docs/spec.md §7), moves through runtime/navigate.ts.
    files: ['services/renderer/src/app/**/*.{ts,tsx}', 'apps/cookbook/src/app/**/*.{ts,tsx}'],
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
