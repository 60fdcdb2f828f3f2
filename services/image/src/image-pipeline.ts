/**
 * One image request from path to bytes: parse and check the modifiers, find the source's identity,
 * answer 304 or a cache hit before any decode, otherwise transform once (single flight) inside the
 * bounded queue and keep the result. A new transform is charged to the address that asked for it
 * (address-budget.ts), and stops between stages once nobody waits for it (shared-flights.ts).
 */
import type { ImageConfig } from './config.js';
import { isNotModified } from '@tern/shared/http-cache/conditional';
import { stillWanted } from './abandoned.js';
import { AddressBudget, FREE, type BudgetTicket } from './address-budget.js';
import { cacheKey, etagOf, isFingerprinted } from './http-cache.js';
import { checkPixels, probeImage } from './image-probe.js';
import type { ImageSources } from './image-sources.js';
import { JobQueue } from './job-queue.js';
import { modifiersKey, parseModifiers, type ImageModifiers } from './modifiers.js';
import { formatNamed } from './formats.js';
import { chooseFormat, outputFor, outputFormatsOf } from './output-format.js';
import { boundOutput } from './output-size.js';
import { parseImagePath } from './request-path.js';
import type { ResultCache } from './result-cache.js';
import { SharedFlights } from './shared-flights.js';
import { snapModifiers, snapWidthSet } from './snap-widths.js';
import type { LoadedSource } from './source.js';
import type { Transformer, TransformResult } from './transform.js';

export interface ImageRequest {
  url: string;
  accept?: string | undefined;
  ifNoneMatch?: string | undefined;
  ifModifiedSince?: string | undefined;
  /** Who asked (the key its address spends under, client-address.ts). */
  client: string;
  /** Aborts when the asker is gone: its connection closed before the answer was sent. */
  signal: AbortSignal;
}

export interface ImageResponse {
  status: 200 | 304;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface ImageMetrics {
  transforms: number;
  /** Transforms stopped after they left the queue, nobody waiting for them any more. */
  stopped: number;
  cacheHits: number;
  cacheMisses: number;
  notModified: number;
}

export interface PipelineParts {
  config: ImageConfig;
  sources: ImageSources;
  cache: ResultCache;
  transform: Transformer;
}

export function createImagePipeline({ config, sources, cache, transform }: PipelineParts) {
  const metrics: ImageMetrics = { transforms: 0, stopped: 0, cacheHits: 0, cacheMisses: 0, notModified: 0 };
  const queue = new JobQueue({
    concurrency: config.IMAGE_CONCURRENCY,
    queueSize: config.IMAGE_QUEUE_SIZE,
    timeoutMs: config.IMAGE_JOB_TIMEOUT_MS,
    retryAfterSeconds: config.IMAGE_RETRY_AFTER_S,
  });
  const flights = new SharedFlights<TransformResult>();
  const budget = new AddressBudget({
    budgetMs: config.IMAGE_ADDRESS_BUDGET_MS,
    windowMs: config.IMAGE_ADDRESS_WINDOW_S * 1000,
    concurrency: config.IMAGE_ADDRESS_CONCURRENCY,
    maxAddresses: config.IMAGE_ADDRESS_TABLE_SIZE,
    retryAfterS: config.IMAGE_RETRY_AFTER_S,
  });
  const formats = outputFormatsOf(config);
  const ruleContext = { maxDimension: config.IMAGE_MAX_DIMENSION, formats };
  const snapSet = config.IMAGE_SNAP_WIDTHS ? snapWidthSet(config.IMAGE_SNAP_EXTRA_WIDTHS, config.IMAGE_MAX_DIMENSION) : [];
  const fingerprint = new RegExp(config.IMAGE_FINGERPRINT_PATTERN);

  /** Between two stages of a transform: stop when nobody waits for it any more. */
  function nextStage(signal: AbortSignal): void {
    if (signal.aborted) metrics.stopped++;
    stillWanted(signal);
  }

  /** The transform in its slot, in stages; its address is charged the time the slot was held. */
  async function produce(
    source: LoadedSource,
    modifiers: ImageModifiers,
    format: string,
    signal: AbortSignal,
    ticket: BudgetTicket,
  ): Promise<TransformResult> {
    return queue.run(async () => {
      const started = performance.now();
      try {
        const probe = await probeImage(source.data, modifiers.animated !== undefined);
        const target = outputFor(format, probe.format, probe.pages, formats);
        let bounded = modifiers;
        if (target.format !== undefined) {
          checkPixels(probe, config.IMAGE_MAX_INPUT_PIXELS);
          bounded = boundOutput(probe, modifiers, config.IMAGE_MAX_DIMENSION);
        }
        nextStage(signal);
        metrics.transforms++;
        return await transform(source, bounded, target);
      } finally {
        // When sharp really stopped, even after the job's time limit answered 503.
        ticket.charge(performance.now() - started);
      }
    }, signal);
  }

  /**
   * A new transform for `key`, or a join of the one under way (which costs nobody anything). A new
   * one is a 429 before any work when the asker's address is over its budget or at its cap.
   */
  function transformOnce(
    key: string,
    request: ImageRequest,
    work: (signal: AbortSignal, ticket: BudgetTicket) => Promise<TransformResult>,
  ): Promise<TransformResult> {
    stillWanted(request.signal);
    if (flights.has(key)) return flights.run(key, request.signal, (signal) => work(signal, FREE));
    const ticket = budget.admit(request.client);
    return flights.run(key, request.signal, async (signal) => {
      try {
        return await work(signal, ticket);
      } finally {
        ticket.done();
      }
    });
  }

  async function handle(request: ImageRequest): Promise<ImageResponse> {
    const path = parseImagePath(request.url);
    const parsed = snapModifiers(parseModifiers(path.modifiers, ruleContext), snapSet, config.IMAGE_MAX_DIMENSION);
    const { format: requested, ...modifiers } = parsed;
    const choice = chooseFormat(requested, request.accept, formats, modifiers.animated !== undefined);
    const meta = await sources.meta(path.source, path.remote);
    const key = cacheKey({ source: path.source, identity: meta.identity, modifiers: modifiersKey(modifiers), format: choice.format });
    const headers: Record<string, string> = {
      etag: etagOf(key),
      'cache-control':
        !path.remote && isFingerprinted(path.source, fingerprint) ? config.IMAGE_CACHE_CONTROL_IMMUTABLE : config.IMAGE_CACHE_CONTROL,
      'content-security-policy': "default-src 'none'",
      'x-content-type-options': 'nosniff',
    };
    if (meta.mtime) headers['last-modified'] = meta.mtime.toUTCString();
    if (choice.negotiated) headers.vary = 'Accept';

    if (isNotModified({ 'if-none-match': request.ifNoneMatch, 'if-modified-since': request.ifModifiedSince }, headers.etag!, meta.mtime)) {
      metrics.notModified++;
      return { status: 304, headers };
    }
    let result: TransformResult | undefined = await cache.read(key);
    headers['x-image-cache'] = result ? 'HIT' : 'MISS';
    if (result) metrics.cacheHits++;
    else metrics.cacheMisses++;
    result ??= await transformOnce(key, request, async (signal, ticket) => {
      const source = 'data' in meta ? meta : await sources.load(path.source, path.remote);
      nextStage(signal);
      const output = await produce(source, modifiers, choice.format, signal, ticket);
      // A source that changed between stat and read is served, but not filed under the old identity.
      if (source.identity === meta.identity) await cache.put(key, output);
      return output;
    });
    return { status: 200, headers: { ...headers, 'content-type': contentTypeOf(result.format) }, body: result.data };
  }

  return { handle, metrics, queue, budget };
}

/** A result's format is one of formats.ts; anything else would be a bug, not a client's error. */
function contentTypeOf(format: string): string {
  const descriptor = formatNamed(format);
  if (!descriptor) throw new Error(`a result in an unknown format: ${format}`);
  return descriptor.mime;
}

export type ImagePipeline = ReturnType<typeof createImagePipeline>;
