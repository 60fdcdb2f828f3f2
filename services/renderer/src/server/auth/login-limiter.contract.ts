/** The contract both login limiters pass; `create` gets a settable clock and a fresh scope. */
import { describe, expect, it } from 'vitest';
import type { LimiterSettings, LoginLimiter } from './login-limiter.js';

export function describeLoginLimiter(name: string, create: (settings: LimiterSettings, scope: string) => LoginLimiter): void {
  describe(`LoginLimiter contract: ${name}`, () => {
    let scopes = 0;
    const setup = () => {
      const clock = { t: 1_000_000 };
      const limiter = create({ max: 5, windowMs: 15 * 60_000, now: () => clock.t }, `s${++scopes}`);
      return { clock, limiter };
    };

    it('lets four failures through and blocks at the fifth, for the rest of the window', async () => {
      const { clock, limiter } = setup();
      for (let i = 0; i < 4; i++) {
        expect(await limiter.fail('1.2.3.4|a@b.c')).toBe(0);
        clock.t += 60_000;
      }
      expect(await limiter.fail('1.2.3.4|a@b.c')).toBe(11 * 60_000);
      expect(await limiter.blockedFor('1.2.3.4|a@b.c')).toBe(11 * 60_000);
      clock.t += 11 * 60_000 - 1;
      expect(await limiter.blockedFor('1.2.3.4|a@b.c')).toBe(1);
      clock.t += 1;
      expect(await limiter.blockedFor('1.2.3.4|a@b.c')).toBe(0);
    });

    it('counts each key apart', async () => {
      const { limiter } = setup();
      for (let i = 0; i < 5; i++) await limiter.fail('1.2.3.4|a@b.c');
      expect(await limiter.blockedFor('1.2.3.4|a@b.c')).toBeGreaterThan(0);
      expect(await limiter.blockedFor('1.2.3.4|other@b.c')).toBe(0);
      expect(await limiter.blockedFor('5.6.7.8|a@b.c')).toBe(0);
    });

    it('forgets failures older than the window', async () => {
      const { clock, limiter } = setup();
      for (let i = 0; i < 4; i++) await limiter.fail('k');
      clock.t += 15 * 60_000 + 1;
      expect(await limiter.fail('k')).toBe(0);
    });

    it('starts over after a reset', async () => {
      const { limiter } = setup();
      for (let i = 0; i < 5; i++) await limiter.fail('k');
      await limiter.reset('k');
      expect(await limiter.blockedFor('k')).toBe(0);
    });
  });
}
