/** What createAccounts (accounts.ts) hands the routes: its own file, so the routes need not import their registrar. */
import type { ContentRepository } from '../content/types.js';
import type { AccountsView } from '../app/viewer-services.js';
import type { LoginGuard } from './auth/login-guard.js';
import type { SessionStore } from './sessions/index.js';
import type { UserStore } from './users/index.js';

export interface Accounts extends AccountsView {
  sessions: SessionStore;
  users: UserStore;
  /** Who may try a password: per account and address, per address, and familiar pairs. */
  loginGuard: LoginGuard;
  repository: ContentRepository;
  sessionTtlSeconds: number;
  ping(): Promise<boolean>;
  /** Why the account store cannot be used (Redis's own words), or null. */
  unavailableReason(): string | null;
  close(): Promise<void>;
}
