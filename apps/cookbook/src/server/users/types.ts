/** Who can sign in, and what each has saved. */

/** A user as the rest of the site sees it: never with the password hash. */
export interface User {
  id: string;
  /** Lowercased, trimmed. */
  email: string;
  name: string;
  /** ISO date. */
  createdAt: string;
}

/** A user as the users file and Redis hold it: with the password hash (credentials.ts makes and checks it). */
export interface UserRecord extends User {
  passwordHash: string;
}

export interface NewUser {
  email: string;
  name: string;
  password: string;
}

export interface SavedEntry {
  recipeId: string;
  /** Epoch milliseconds. */
  savedAt: number;
}

/**
 * Every account with its password hash, and what each saved (newest first): the users file's own
 * shape, and what `npm run users -- export` writes and `import` reads.
 */
export interface UsersDump {
  version: 1;
  users: UserRecord[];
  saved: Record<string, SavedEntry[]>;
}

/** What an import did, by email: users added, and users left out because the email or id was taken. */
export interface ImportResult {
  added: string[];
  skipped: string[];
}

export interface UserStore {
  readonly kind: 'redis' | 'file';
  /** Creates a user; rejects with a UserExistsError when the email is taken. */
  add(user: NewUser): Promise<User>;
  /** The user whose email and password match, or null; the same cost whether or not the email exists. */
  verify(email: string, password: string): Promise<User | null>;
  get(id: string): Promise<User | null>;
  findByEmail(email: string): Promise<User | null>;
  /** Recipe ids the user saved, most recent first. */
  saved(userId: string): Promise<string[]>;
  /** Saving twice keeps one entry; answers whether it was new. */
  save(userId: string, recipeId: string): Promise<boolean>;
  /** Answers whether it was saved. */
  unsave(userId: string, recipeId: string): Promise<boolean>;
  /** Deletes the user and their saved list (their sessions then find no user); answers whether there was one. */
  remove(userId: string): Promise<boolean>;
  /** Every user with the password hash, and every saved list. */
  dump(): Promise<UsersDump>;
  /** Adds the users of a dump (ids, hashes and dates kept) with their saved lists; never replaces a user. */
  restore(dump: UsersDump): Promise<ImportResult>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export class UserExistsError extends Error {
  constructor(email: string) {
    super(`a user with the email ${email} already exists`);
    this.name = 'UserExistsError';
  }
}

/** Emails are compared as typed, minus case and surrounding space. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
