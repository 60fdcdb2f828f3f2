/**
 * Whether a User-Agent is a known crawler (isbot's list), remembered per string: isbot runs one
 * large regular expression, and the gateway asks on every render-cache hit, where the same few
 * browsers' strings come back request after request. The memory is bounded by count and by the
 * strings' length (packages/shared/src/process/remembered.ts).
 */
import { isbot } from 'isbot';
import { remembered } from '../process/remembered.js';

const isCrawler = remembered(isbot, { maxEntries: 1000, maxKeyLength: 512 });

export function isCrawlerAgent(userAgent: string | undefined): boolean {
  return isCrawler(userAgent ?? '');
}
