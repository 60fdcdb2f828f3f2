import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { clientConditions, serverConditions } from './packages/vite-plugin/src/source-conditions.js';

/**
 * A test that starts a process, talks to a real Redis, needs the built bundle, works through the
 * real data of a build step (all of @iconify/json, all the content) or waits on a raw TCP
 * connection's behaviour (lingering close, parser errors) is named `*.integration.test.ts` and runs
 * with the integration suite, wherever it sits; everything else beside the code is a unit test and
 * the unit suite runs in seconds.
 */
const BESIDE_CODE = ['packages/*/src', 'services/*/src', 'apps/*/src'];
const INTEGRATION_BESIDE_CODE = BESIDE_CODE.map((dir) => `${dir}/**/*.integration.test.ts`);

// The workspace packages from their sources (the exports maps' `source` condition), as tsc reads them.
const resolve = { conditions: clientConditions };
// Vitest hands the server conditions to its worker processes' Node (--conditions) as well, where
// `module` would load packages' bundler-only ESM builds (as Vitest's own default leaves it out).
const ssr = { resolve: { conditions: serverConditions.filter((condition) => condition !== 'module') } };

// Three suites: unit tests beside the code, integration through the gateway, e2e in Chromium.
export default defineConfig({
  test: {
    projects: [
      {
        resolve,
        ssr,
        test: {
          name: 'unit',
          include: [...BESIDE_CODE.map((dir) => `${dir}/**/*.test.{ts,tsx}`), 'tests/unit/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/*.integration.test.ts'],
          environment: 'node',
          // A worker keeps the modules it has imported for its next file (isolate: false): imports
          // were 20 s of the 90 before. So a unit test leaves no global state behind (real timers
          // restored, mocks undone). Child processes (Vitest's default pool), not threads: each
          // worker has its own libuv pool, so one file's scrypt does not queue behind another's
          // sharp transforms, and native modules never load into a worker thread. Every core runs
          // tests: the main process only collects results (Vitest's default keeps one free).
          pool: 'forks',
          isolate: false,
          maxWorkers: availableParallelism(),
          // Two files at once on a busy machine: an image or scrypt test may take longer than 5 s.
          testTimeout: 15_000,
        },
      },
      {
        resolve,
        ssr,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts', 'tests/deploy/**/*.test.ts', ...INTEGRATION_BESIDE_CODE],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        resolve,
        ssr,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
