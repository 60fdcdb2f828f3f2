import { defineConfig } from 'vitest/config';

// Three suites: unit tests beside the code, integration through the gateway, e2e in Chromium.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'lib/**/*.test.ts',
            'services/*/test/**/*.test.{ts,tsx}',
            'services/*/src/**/*.test.{ts,tsx}',
            'scripts/**/*.test.ts',
            'tests/deploy/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
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
