/**
 * The transform itself, done by ipx: a storage that hands ipx the bytes we already loaded, sharp
 * options that apply the EXIF orientation, bound the input and time, and our SVG sanitiser.
 */
import { createIPX, type IPX, type IPXStorage } from 'ipx';
import { createError, isHttpError } from '#lib/errors.js';
import { IMAGE_ERRORS } from './error-codes.js';
import type { ImageProbe } from './image-probe.js';
import type { ImageModifiers } from './modifiers.js';
import type { LoadedSource } from './source.js';
import { sanitizeSvgPlugin } from './svg-sanitize.js';

export interface TransformResult {
  data: Buffer;
  /** The file extension and the subtype of `image/...`: webp, jpeg, svg+xml... */
  format: string;
}

export interface TransformOptions {
  maxInputPixels: number;
  timeoutMs: number;
}

type IpxModifiers = NonNullable<Parameters<IPX>[1]>;

/** ipx reads the source through this storage; the bytes travel in the request options. */
const loadedStorage: IPXStorage = {
  name: 'image-service:loaded',
  getMeta: (_id, opts) => ({ mtime: (opts?.source as LoadedSource | undefined)?.mtime }),
  getData: (_id, opts) => {
    const data = (opts?.source as LoadedSource | undefined)?.data;
    if (!data) return undefined;
    // Hand over the buffer itself when it is not a slice of a shared pool; copying 20 MB is not free.
    const whole = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength && data.buffer instanceof ArrayBuffer;
    return whole ? (data.buffer as ArrayBuffer) : new Uint8Array(data).buffer;
  },
};

/**
 * ipx copies sharpOptions onto sharp's own options after construction, which is how a time limit
 * (and modulate, whose ipx 3 handler sharp 0.34 rejects) reach the pipeline.
 */
function ipxWith(options: TransformOptions, pipelineOptions: Record<string, number> = {}): IPX {
  return createIPX({
    storage: loadedStorage,
    svgo: { plugins: [sanitizeSvgPlugin] },
    sharpOptions: {
      autoOrient: true,
      limitInputPixels: options.maxInputPixels,
      failOn: 'error',
      ...{ timeoutSeconds: Math.max(1, Math.ceil(options.timeoutMs / 1000)), ...pipelineOptions },
    },
  });
}

function modulateOptions(value: string): Record<string, number> {
  const [brightness, saturation, hue] = value.split('_').map(Number) as [number, number, number];
  return { brightness, saturation, hue: ((hue % 360) + 360) % 360 };
}

export function createTransformer(options: TransformOptions) {
  const shared = ipxWith(options);

  return async function transform(
    source: LoadedSource,
    probe: ImageProbe,
    modifiers: ImageModifiers,
    format: string,
  ): Promise<TransformResult> {
    const { modulate, ...rest } = modifiers;
    const ipx = modulate === undefined ? shared : ipxWith(options, modulateOptions(modulate));
    const ipxModifiers = { ...rest } as IpxModifiers;
    delete ipxModifiers.format;
    if (format === 'default') {
      if (probe.type !== 'svg') ipxModifiers.format = 'webp';
      if (probe.pages > 1 && (probe.type === 'gif' || probe.type === 'webp')) ipxModifiers.animated = '';
    } else {
      ipxModifiers.format = format;
    }
    try {
      const result = await ipx(source.id, ipxModifiers, { source }).process();
      const data = typeof result.data === 'string' ? Buffer.from(result.data) : result.data;
      return { data, format: result.format ?? 'webp' };
    } catch (error) {
      throw classifyTransformError(error);
    }
  };
}

export type Transformer = ReturnType<typeof createTransformer>;

/** sharp's messages tell a bad argument from a bad image; neither is a 500. */
export function classifyTransformError(error: unknown): Error {
  if (isHttpError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) return createError(IMAGE_ERRORS.IMAGE_TOO_MANY_PIXELS());
  if (/timeout/i.test(message)) return createError(IMAGE_ERRORS.IMAGE_TRANSFORM_TIMEOUT());
  if (/^Expected |Unable to parse colou?r|bad extract area|extract_area/i.test(message)) {
    return createError(IMAGE_ERRORS.IMAGE_INVALID_MODIFIER_VALUE(message));
  }
  return createError(IMAGE_ERRORS.IMAGE_UNPROCESSABLE());
}
