/** Builds the image app over generated fixtures, with the real pipeline and a silent logger. */
import { rm } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { createLogger } from '@tern/shared/logging/logger';
import { buildImageApp, type ImageAppDeps } from '../app.js';
import type { ImagePipeline } from '../image-pipeline.js';
import { parseImageConfig } from '../config.js';
import { makeFixtures, type Fixtures } from './make-fixtures.js';

export interface TestImageApp {
  app: FastifyInstance;
  images: ImagePipeline;
  fixtures: Fixtures;
  close(): Promise<void>;
}

export async function startImageApp(
  env: Record<string, string> = {},
  options: Omit<ImageAppDeps, 'logger'> = {},
  fixtures?: Fixtures,
): Promise<TestImageApp> {
  const fx = fixtures ?? (await makeFixtures());
  const config = parseImageConfig({
    IMAGE_DIR: fx.root,
    IMAGE_CACHE_DIR: fx.cacheDir,
    IMAGE_SNAP_WIDTHS: 'false',
    // Every request of a test comes from one address; the tests of the budget per address set their own.
    IMAGE_ADDRESS_BUDGET_MS: '3600000',
    IMAGE_ADDRESS_CONCURRENCY: '1000',
    ...env,
  });
  const logger = createLogger({ service: 'image', level: 'silent', format: 'json' });
  const { app, images } = await buildImageApp(config, { logger, ...options });
  return {
    app,
    images,
    fixtures: fx,
    async close() {
      await app.close();
      if (!fixtures) await rm(fx.base, { recursive: true, force: true });
    },
  };
}

export async function metaOf(body: Buffer) {
  return sharp(body).metadata();
}
