/**
 * The transform itself, done by ipx: a storage that hands ipx the bytes we already loaded, sharp
 * options that apply the EXIF orientation, bound the input and time, and our SVG sanitiser.
 */
import { createIPX, type IPX, type IPXStorage } from 'ipx';
import sharp from 'sharp';
import { createError, isHttpError } from '@tern/shared/errors/errors';
import { IMAGE_ERRORS } from './error-codes.js';
import { IMAGE_FORMATS, formatNamed, formatOfMime, type ImageFormat } from './formats.js';
import type { ImageModifiers } from './modifiers.js';
import type { OutputTarget } from './output-format.js';
import type { LoadedSource } from './source.js';
import { sanitizeSvgPlugin } from './svg-sanitize.js';

export interface TransformResult {
  data: Buffer;
  /** The name of its format in formats.ts: webp, jpeg, svg... */
  format: string;
}

export interface TransformOptions {
  maxInputPixels: number;
  timeoutMs: number;
  /** The formats and their encoder options: formats.ts's list unless a test hands its own. */
  formats?: readonly ImageFormat[];
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
 * ipx copies sharpOptions onto sharp's own options after construction, which is how a time limit,
 * the output format's encoder options (formats.ts) and modulate (whose ipx 3 handler sharp 0.34
 * rejects) reach the pipeline.
 */
function ipxWith(options: TransformOptions, pipelineOptions: Record<string, unknown> = {}): IPX {
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

/** sharp keeps a pipeline's settings in `options`, a field its types do not declare. */
const internalOptions = (pipeline: sharp.Sharp) => (pipeline as unknown as { options: Record<string, unknown> }).options;

const encoderCache = new WeakMap<ImageFormat, Record<string, unknown>>();

/**
 * The encoder options as sharp holds them internally, which is the only way to hand them through
 * ipx (it copies `sharpOptions` onto the pipeline, then calls `toFormat` with the quality alone):
 * the keys that calling the format's own method changes on a fresh pipeline.
 */
export function encoderInternals(format: ImageFormat): Record<string, unknown> {
  const output = format.output;
  if (!output) return {};
  const cached = encoderCache.get(format);
  if (cached) return cached;
  const plain = internalOptions(sharp());
  const set = internalOptions(sharp()[output.method](output.encoder));
  const changed = Object.fromEntries(
    Object.entries(set).filter(([key, value]) => key !== 'formatOut' && JSON.stringify(value) !== JSON.stringify(plain[key])),
  );
  encoderCache.set(format, changed);
  return changed;
}

export function createTransformer(options: TransformOptions) {
  // One ipx per output format, each with its encoder options; a modulate gets one of its own.
  const formats = options.formats ?? IMAGE_FORMATS;
  /** The encoder options of a format, as sharp holds them; none for a source served as it is. */
  const encoderOf = (format: string | undefined): Record<string, unknown> => {
    const descriptor = format === undefined ? undefined : formats.find((f) => f.name === format);
    return descriptor ? encoderInternals(descriptor) : {};
  };
  const perFormat = new Map<string, IPX>();
  const ipxFor = (format: string | undefined): IPX => {
    const key = format ?? '';
    let ipx = perFormat.get(key);
    if (!ipx) perFormat.set(key, (ipx = ipxWith(options, encoderOf(format))));
    return ipx;
  };

  return async function transform(source: LoadedSource, modifiers: ImageModifiers, target: OutputTarget): Promise<TransformResult> {
    const { modulate, ...rest } = modifiers;
    const ipx =
      modulate === undefined ? ipxFor(target.format) : ipxWith(options, { ...encoderOf(target.format), ...modulateOptions(modulate) });
    const ipxModifiers = { ...rest } as IpxModifiers;
    delete ipxModifiers.format;
    if (target.format !== undefined) ipxModifiers.format = target.format;
    if (target.keepFrames) ipxModifiers.animated = '';
    try {
      const result = await ipx(source.id, ipxModifiers, { source }).process();
      const data = typeof result.data === 'string' ? Buffer.from(result.data) : result.data;
      return { data, format: resultFormat(result.format, target.format) };
    } catch (error) {
      throw classifyTransformError(error);
    }
  };
}

/** ipx reports the subtype of the result's MIME type (`svg+xml`); ours is the descriptor's name. */
function resultFormat(reported: string | undefined, asked: string | undefined): string {
  const format = reported === undefined ? undefined : (formatOfMime(reported) ?? formatNamed(reported));
  const name = format?.name ?? asked;
  if (name === undefined) throw new Error(`ipx wrote a result in a format formats.ts does not know: ${reported}`);
  return name;
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
