/**
 * A Redis URL as it may be logged. Apart from the client (ioredis), so the launcher, which only
 * names the store it was given, does not load the client for it.
 */

/** The URL as it may be logged: the password replaced. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable Redis URL)';
  }
}
