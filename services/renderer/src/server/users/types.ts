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

export interface NewUser {
  email: string;
  name: string;
  password: string;
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
