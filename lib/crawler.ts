/**
 * Whether a User-Agent is a known crawler (isbot's list), remembered per string: isbot runs one
 * large regular expression, and the gateway asks on every render-cache hit, where the same few
 * browsers' strings come back request after request. The memory is bounded by count and by the
 * strings' length, so a client sending a new agent each time only evicts.
 */
import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';

const MAX_AGENTS = 1000;
/** Longer strings are asked afresh every time, never kept: no client makes the memory hold megabytes. */
const MAX_KEPT_LENGTH = 512;

const answers = new LRUCache<string, boolean>({ max: MAX_AGENTS });

export function isCrawlerAgent(userAgent: string | undefined): boolean {
  const agent = userAgent ?? '';
  if (agent.length > MAX_KEPT_LENGTH) return isbot(agent);
  let answer = answers.get(agent);
  if (answer === undefined) answers.set(agent, (answer = isbot(agent)));
  return answer;
}
