/**
 * A pure function of a string, remembered per string with bounds: at most `maxEntries` answers
 * (least recently used go first), and keys longer than `maxKeyLength` are computed afresh and
 * never kept, so a client sending a new long string each time only evicts. For the questions
 * asked on every request with the same few strings (packages/shared/src/http/crawler.ts, the gateway's route rules).
 */
import { LRUCache } from 'lru-cache';

export function remembered<V extends NonNullable<unknown>>(
  compute: (key: string) => V,
  { maxEntries, maxKeyLength }: { maxEntries: number; maxKeyLength: number },
): (key: string) => V {
  const answers = new LRUCache<string, V>({ max: maxEntries });
  return (key) => {
    if (key.length > maxKeyLength) return compute(key);
    let answer = answers.get(key);
    if (answer === undefined) answers.set(key, (answer = compute(key)));
    return answer;
  };
}
