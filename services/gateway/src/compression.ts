/**
 * br or gzip for text answers, proxied streams included. Each chunk is flushed as it comes so
 * streamed HTML reaches the browser as early compressed as it would uncompressed.
 *
 * What goes through here is compressed once per answer (a page rendered for one visitor, an API
 * answer): cached pages are compressed once per entry at the best level (render-cache/cache-entry.ts)
 * and never pass here. So the levels are the cheap ones. For a 44 KB page, against br quality 4
 * and gzip level 6: br quality 1 costs a fifth of the CPU for 15 % more bytes, gzip level 1 half
 * for 5 % more (docs/decisions/performance.md). brotli's window is 256 KB, not 4 MB: a page is
 * smaller, and each answer's encoder allocates its window.
 */
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants } from 'node:zlib';

export const STREAM_BROTLI_QUALITY = 1;
export const STREAM_GZIP_LEVEL = 1;

/**
 * Answers held whole up to this size (a page the renderer sent whole, page-proxy.ts; an API answer)
 * are compressed in one synchronous call; bigger ones and streams go through a zlib stream. The
 * library's default on two cores is 8 KB, so a page took the stream path: a Readable, a pipeline,
 * the threadpool and a flush per chunk, where one call does it: a signed-in home page (45 KB, br)
 * cost the gateway 1.77 ms of CPU that way and 0.89 ms in one call (paired rounds,
 * docs/decisions/performance.md, stop 45). One call of 128 KB holds the event loop under a
 * millisecond at these levels.
 */
export const SYNC_COMPRESSION_MAX_BYTES = 128 * 1024;

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    globalCompression: true,
    // Compressed request bodies are refused with 415 (packages/shared/src/http/request-guards.ts), never decoded here.
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    syncThreshold: SYNC_COMPRESSION_MAX_BYTES,
    brotliOptions: {
      flush: constants.BROTLI_OPERATION_FLUSH,
      params: {
        [constants.BROTLI_PARAM_QUALITY]: STREAM_BROTLI_QUALITY,
        [constants.BROTLI_PARAM_LGWIN]: 18,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    },
    zlibOptions: { flush: constants.Z_SYNC_FLUSH, level: STREAM_GZIP_LEVEL, memLevel: 9 },
  });
}
