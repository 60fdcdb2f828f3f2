/** Who a request belongs to: its session cookie, a live session, a user that still exists. */
import type { Session, SessionStore } from '../sessions/index.js';
import type { User, UserStore } from '../users/index.js';
import { sessionIdFrom } from './session-cookie.js';

export interface SignedIn {
  session: Session;
  user: User;
}

export async function signedInFrom(
  cookieHeader: string | null | undefined,
  sessions: SessionStore,
  users: UserStore,
): Promise<SignedIn | null> {
  const id = sessionIdFrom(cookieHeader);
  if (!id) return null;
  const session = await sessions.get(id);
  if (!session) return null;
  const user = await users.get(session.userId);
  return user ? { session, user } : null;
}
