/**
 * One door to both kinds of source. Remote sources remember their identity for a while, so a
 * conditional request or a cache hit needs no upstream fetch; fetches of one URL are shared.
 */
import type { ImageConfig } from './config.js';
import { createLocalFiles } from './local-source.js';
import { Lru } from '@tern/shared/http-cache/lru';
import type { AddressPolicy } from './pinned-lookup.js';
import { createRemoteFetcher } from './remote-source.js';
import { SingleFlight } from '@tern/shared/http-cache/single-flight';
import type { LoadedSource, SourceMeta } from './source.js';

export interface ImageSources {
  /** Identity without the bytes when it can (a stat, or a fresh remote entry); else it loads. */
  meta(id: string, remote: boolean): Promise<SourceMeta | LoadedSource>;
  load(id: string, remote: boolean): Promise<LoadedSource>;
  close(): Promise<void>;
}

export function createImageSources(config: ImageConfig, policy: AddressPolicy): ImageSources {
  const local = createLocalFiles(config.IMAGE_DIR, config.IMAGE_MAX_SOURCE_BYTES);
  const remote = createRemoteFetcher({
    ...policy,
    domains: config.IMAGE_DOMAINS,
    timeoutMs: config.IMAGE_FETCH_TIMEOUT_MS,
    maxBytes: config.IMAGE_MAX_SOURCE_BYTES,
    maxRedirects: config.IMAGE_MAX_REDIRECTS,
  });
  const known = new Lru<SourceMeta & { expires: number }>({ maxEntries: 1000 });
  const fetches = new SingleFlight<LoadedSource>();

  const fetchRemote = (url: string) =>
    fetches.run(url, async () => {
      const loaded = await remote.fetch(url);
      const { id, identity, mtime } = loaded;
      known.set(url, { id, identity, mtime, expires: Date.now() + config.IMAGE_REMOTE_TTL_S * 1000 });
      return loaded;
    });

  return {
    async meta(id, isRemote) {
      if (!isRemote) return local.meta(id);
      remote.check(id);
      const entry = known.get(id);
      if (entry && entry.expires > Date.now()) return entry;
      return fetchRemote(id);
    },
    load: (id, isRemote) => (isRemote ? fetchRemote(id) : local.load(id)),
    close: () => remote.close(),
  };
}
