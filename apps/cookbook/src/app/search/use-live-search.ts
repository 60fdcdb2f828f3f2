/**
 * Results as the visitor types: the engine (search/browser-index.ts, its own chunk) is imported on
 * the first focus or keystroke; until it is in, and if it fails, the server's results stay and the
 * form still submits. Only the latest keystroke's results are shown.
 */
import { useCallback, useRef, useState } from 'react';
import type { SearchEngine } from './browser-index.js';
import { canonicalQuery, MAX_QUERY_LENGTH } from './query.js';
import type { SearchHit } from './run-search.js';

export interface LiveResults {
  query: string;
  hits: SearchHit[];
}

export function useLiveSearch() {
  const engine = useRef<Promise<SearchEngine> | null>(null);
  const latest = useRef('');
  const [live, setLive] = useState<LiveResults | null>(null);

  const load = useCallback((): Promise<SearchEngine> => {
    engine.current ??= import('./browser-index.js').then((m) => m.loadSearchEngine());
    // A failed load may be retried on the next keystroke.
    engine.current.catch(() => (engine.current = null));
    return engine.current;
  }, []);

  const onInput = useCallback(
    (value: string) => {
      const query = canonicalQuery(value);
      latest.current = query;
      if (query.length > MAX_QUERY_LENGTH) return;
      load().then(
        (search) => {
          if (latest.current === query) setLive({ query, hits: query ? search(query) : [] });
        },
        () => undefined,
      );
    },
    [load],
  );

  return { live, warm: () => void load().catch(() => undefined), onInput };
}
