/**
 * br or gzip for text answers, proxied streams included. Each chunk is flushed as it comes so
 * streamed HTML reaches the browser as early compressed as it would uncompressed.
 */
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants } from 'node:zlib';

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    globalCompression: true,
    // Compressed request bodies are refused with 415 (packages/shared/src/http/request-guards.ts), never decoded here.
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    brotliOptions: {
      flush: constants.BROTLI_OPERATION_FLUSH,
      params: { [constants.BROTLI_PARAM_QUALITY]: 4 },
    },
    zlibOptions: { flush: constants.Z_SYNC_FLUSH, level: 6 },
  });
}
