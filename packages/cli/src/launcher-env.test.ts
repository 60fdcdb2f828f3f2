import { describe, expect, it } from 'vitest';
import { launcherEnv } from './launcher-env.js';

describe("npm start's environment for the services", () => {
  it('is production when the operator set no NODE_ENV (React production build)', () => {
    expect(launcherEnv({}).NODE_ENV).toBe('production');
    expect(launcherEnv({ NODE_ENV: '' }).NODE_ENV).toBe('production');
  });

  it("keeps the operator's NODE_ENV and MALLOC_ARENA_MAX", () => {
    expect(launcherEnv({ NODE_ENV: 'development', MALLOC_ARENA_MAX: '4' })).toMatchObject({
      NODE_ENV: 'development',
      MALLOC_ARENA_MAX: '4',
    });
    expect(launcherEnv({}).MALLOC_ARENA_MAX).toBe('2');
  });
});
