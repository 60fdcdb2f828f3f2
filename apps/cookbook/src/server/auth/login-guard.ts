/**
 * Who may try a password, from the three counts of login-limiter.ts (docs/decisions/sessions-and-auth.md):
 *
 * - an account, from one address: LOGIN_FAILURES_MAX failures lock that account for that address
 *   (the right password too) until the window lets the oldest go;
 * - an address, whatever the accounts: LOGIN_ADDRESS_FAILURES_MAX failures cap password spraying;
 *   past it the address may no longer try accounts it is unfamiliar with;
 * - familiar pairs: an account that signed in from an address within LOGIN_FAMILIAR_MS keeps being
 *   tried there past the address cap (Azure AD smart lockout's familiar locations; OWASP's device
 *   cookies keyed by the address). Someone else's failures behind the same address (an office, a
 *   campus, a carrier's NAT) never lock out a visitor who has signed in from it before; a sprayer
 *   can make an account familiar only by knowing its password.
 */
import type { LoginLimiter } from './login-limiter.js';

export interface LoginGuard {
  /** Milliseconds until `address` may try `account`'s password; 0 when it may now. */
  blockedFor(address: string, account: string): Promise<number>;
  failed(address: string, account: string): Promise<void>;
  succeeded(address: string, account: string): Promise<void>;
}

export interface LoginGuardCounts {
  /** Failures per address and account. */
  account: LoginLimiter;
  /** Failures per address, any account. */
  address: LoginLimiter;
  /** Successes per address and account, `max: 1` over the familiar window: any one is a mark. */
  familiar: LoginLimiter;
}

export function createLoginGuard(counts: LoginGuardCounts): LoginGuard {
  const pair = (address: string, account: string) => `${address}|${account}`;
  return {
    async blockedFor(address, account) {
      const key = pair(address, account);
      const [accountWait, addressWait, familiarFor] = await Promise.all([
        counts.account.blockedFor(key),
        counts.address.blockedFor(address),
        counts.familiar.blockedFor(key),
      ]);
      return Math.max(accountWait, familiarFor > 0 ? 0 : addressWait);
    },
    async failed(address, account) {
      await Promise.all([counts.account.fail(pair(address, account)), counts.address.fail(address)]);
    },
    async succeeded(address, account) {
      // The address count is not reset: signing in to one's own account must not clear a spraying run's count.
      await Promise.all([counts.account.reset(pair(address, account)), counts.familiar.fail(pair(address, account))]);
    },
  };
}
