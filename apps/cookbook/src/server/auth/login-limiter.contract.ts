/**
 * The contract both login limiters pass, alone and as the three counts of the login guard
 * (login-guard.ts); `create` gets a settable clock and a fresh scope.
 */
import { describe, expect, it } from 'vitest';
import { createLoginGuard } from './login-guard.js';
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

  describe(`LoginGuard over ${name} counts`, () => {
    let scopes = 0;
    const setup = () => {
      const clock = { t: 5_000_000 };
      const now = () => clock.t;
      const scope = `g${++scopes}`;
      const guard = createLoginGuard({
        account: create({ max: 5, windowMs: 15 * 60_000, now }, `${scope}-account`),
        address: create({ max: 10, windowMs: 15 * 60_000, now }, `${scope}-address`),
        familiar: create({ max: 1, windowMs: 30 * 24 * 3600_000, now }, `${scope}-familiar`),
      });
      return { clock, guard };
    };

    it("lets a familiar account in past the address cap that other people's failures filled", async () => {
      const { guard } = setup();
      await guard.succeeded('10.0.0.1', 'me@b.c');
      for (let i = 0; i < 10; i++) await guard.failed('10.0.0.1', `other-${i}@b.c`);
      expect(await guard.blockedFor('10.0.0.1', 'me@b.c')).toBe(0);
      // Spraying is capped: an account never signed in from here waits out the window.
      expect(await guard.blockedFor('10.0.0.1', 'new@b.c')).toBe(15 * 60_000);
      expect(await guard.blockedFor('10.0.0.2', 'new@b.c')).toBe(0);
    });

    it('locks an account for one address after five failures, familiar or not, until the window passes', async () => {
      const { clock, guard } = setup();
      await guard.succeeded('10.0.0.1', 'me@b.c');
      for (let i = 0; i < 5; i++) await guard.failed('10.0.0.1', 'me@b.c');
      expect(await guard.blockedFor('10.0.0.1', 'me@b.c')).toBe(15 * 60_000);
      expect(await guard.blockedFor('10.0.0.9', 'me@b.c')).toBe(0);
      clock.t += 15 * 60_000;
      expect(await guard.blockedFor('10.0.0.1', 'me@b.c')).toBe(0);
    });

    it('forgets a familiar pair after 30 days', async () => {
      const { clock, guard } = setup();
      await guard.succeeded('10.0.0.1', 'me@b.c');
      clock.t += 30 * 24 * 3600_000 + 1;
      for (let i = 0; i < 10; i++) await guard.failed('10.0.0.1', `other-${i}@b.c`);
      expect(await guard.blockedFor('10.0.0.1', 'me@b.c')).toBeGreaterThan(0);
    });
  });
}
