/**
 * What one client address may spend on variants not yet cached: a token bucket of transform time
 * (the milliseconds a transform holds one of the service's slots: its CPU time, since libvips runs
 * one thread per transform and there are as many slots as cores) and a cap on its uncached jobs
 * at once (waiting or running). Over either, the answer is 429 with Retry-After. The cost of a
 * transform is known only once it ran, so an address is admitted while its bucket is not empty and
 * charged after: its overdraft is at most its cap times one transform, paid back before the next.
 * Cached variants never come here. The table of addresses is a bounded LRU.
 */
import { createError, type HttpError, type HttpErrorInit } from '@tern/shared/errors/errors';
import { Lru } from '@tern/shared/http-cache/lru';
import { IMAGE_ERRORS } from './error-codes.js';

export interface AddressBudgetOptions {
  /** Transform milliseconds an address may spend per window; also what a quiet address starts with. */
  budgetMs: number;
  windowMs: number;
  /** Uncached jobs of one address at once. */
  concurrency: number;
  /** Addresses remembered; the least recently seen are forgotten first. */
  maxAddresses: number;
  /** Retry-After when the address is at its cap (a job of its own will end soon). */
  retryAfterS: number;
}

interface Account {
  /** Milliseconds left; below zero after an expensive transform (an overdraft). */
  balanceMs: number;
  /** When `balanceMs` was last brought up to date. */
  at: number;
  jobs: number;
}

/** Handed to an admitted job: `charge` what its transform cost when it ends; `done` frees its place. */
export interface BudgetTicket {
  charge(costMs: number): void;
  done(): void;
}

/** The ticket of work that costs nobody: joining a transform someone else started. */
export const FREE: BudgetTicket = { charge: () => undefined, done: () => undefined };

export class AddressBudget {
  private readonly accounts: Lru<Account>;
  private readonly refillPerMs: number;
  private refusals = 0;

  constructor(
    private readonly options: AddressBudgetOptions,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.accounts = new Lru<Account>({ maxEntries: options.maxAddresses });
    this.refillPerMs = options.budgetMs / options.windowMs;
  }

  get stats(): { addresses: number; refused: number } {
    return { addresses: this.accounts.size, refused: this.refusals };
  }

  /** A ticket for one uncached job of `address`, or a 429 HttpError thrown. */
  admit(address: string): BudgetTicket {
    const account = this.accountOf(address);
    const { concurrency, retryAfterS } = this.options;
    if (account.jobs >= concurrency) throw this.refuse(IMAGE_ERRORS.IMAGE_ADDRESS_BUSY(concurrency), retryAfterS);
    if (account.balanceMs <= 0) throw this.refuse(IMAGE_ERRORS.IMAGE_ADDRESS_SPENT(), this.secondsUntilPositive(account));
    account.jobs++;
    let open = true;
    return {
      charge: (costMs) => {
        this.refill(account);
        account.balanceMs -= costMs;
      },
      done: () => {
        if (open) account.jobs--;
        open = false;
      },
    };
  }

  private accountOf(address: string): Account {
    let account = this.accounts.get(address);
    if (!account) {
      account = { balanceMs: this.options.budgetMs, at: this.now(), jobs: 0 };
      this.accounts.set(address, account);
    }
    this.refill(account);
    return account;
  }

  private refill(account: Account): void {
    const now = this.now();
    account.balanceMs = Math.min(this.options.budgetMs, account.balanceMs + (now - account.at) * this.refillPerMs);
    account.at = now;
  }

  /** Whole seconds until the bucket holds something again (at least one). */
  private secondsUntilPositive(account: Account): number {
    return Math.max(1, Math.ceil((1 - account.balanceMs) / this.refillPerMs / 1000));
  }

  private refuse(init: HttpErrorInit, retryAfterS: number): HttpError {
    this.refusals++;
    return createError({ ...init, retryAfterS, data: { retryAfter: retryAfterS } });
  }
}
