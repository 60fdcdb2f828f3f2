/**
 * Every image format the service knows, one descriptor each: how a source of it is recognised
 * (magic bytes), its MIME type and file extension, whether it may be asked for (`f_…`), the
 * encoder options it is written with, how `f_auto` weighs it, and whether an SVG may inline it.
 * Adding a format is adding a descriptor here: the modifier check, the negotiation, the default
 * output, the probe, the result cache's file names and the SVG sanitiser all read this list.
 */
type Sniff = (data: Buffer) => boolean;

/** How `f_auto` weighs a format; the list's order is the preference among equal qualities. */
export interface Negotiation {
  /** Offered for still images, for animated ones, or both. */
  still: boolean;
  animated: boolean;
  /** Offered only when the Accept header names its MIME type: a wildcard promises no support. */
  namedOnly?: boolean;
}

export interface OutputSpec {
  /** sharp's public options of this format (`sharp().avif({ effort })`); `q_` still sets quality. */
  encoder: Record<string, unknown>;
  /** The sharp method that takes `encoder` (sharp names AVIF's encoder `avif`, HEIF's `heif`). */
  method: 'jpeg' | 'png' | 'webp' | 'avif' | 'gif' | 'tiff';
  negotiation?: Negotiation;
  /** Asked for only when this flag of the image config is true (e.g. AVIF, slow to encode). */
  optIn?: 'IMAGE_AVIF';
}

export interface ImageFormat {
  /** The name ipx and sharp use, and the one a request names: `f_webp`. */
  name: string;
  aliases?: readonly string[];
  mime: string;
  /** The extension of its result file in the cache. */
  ext: string;
  /** Recognises a source of this format from its first bytes; tried in the list's order. */
  sniff: Sniff;
  /** A written format; absent: only read. */
  output?: OutputSpec;
  /** The answer when nothing is asked: `'self'` served as it is (sanitised), `'animated'` keeps its frames. */
  whenNoFormat?: 'self' | 'animated';
  /** The output for any source when no format is asked, and for `f_auto` without an Accept header. */
  isDefault?: boolean;
  /** The fallback of `f_auto` when the client accepts none of the offered formats. */
  fallbackFor?: 'still' | 'animated';
  /** A `data:` URI of this type may stay inside an SVG (an inline raster cannot run code). */
  inlineInSvg?: boolean;
}

const startsWith =
  (bytes: readonly number[], offset = 0): Sniff =>
  (data) =>
    bytes.every((b, i) => data[offset + i] === b);
const ascii = (data: Buffer, start: number, end: number) => data.subarray(start, end).toString('latin1');
const isoBrand = (data: Buffer) => (ascii(data, 4, 8) === 'ftyp' ? ascii(data, 8, 12) : undefined);

function looksLikeSvg(data: Buffer): boolean {
  const head = data
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return head.startsWith('<') && /<svg[\s>]/i.test(head);
}

/** The list's order is also `f_auto`'s preference among equal qualities: AVIF, WebP, JPEG, PNG. */
export const IMAGE_FORMATS: readonly ImageFormat[] = [
  {
    name: 'avif',
    mime: 'image/avif',
    ext: 'avif',
    sniff: (data) => /^avi[fs]$/.test(isoBrand(data) ?? ''),
    // Effort 4 of 9: sharp's default, a second or so for a cover on one core.
    output: { method: 'avif', encoder: { effort: 4 }, negotiation: { still: true, animated: false, namedOnly: true }, optIn: 'IMAGE_AVIF' },
    inlineInSvg: true,
  },
  {
    name: 'webp',
    mime: 'image/webp',
    ext: 'webp',
    sniff: (data) => ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 12) === 'WEBP',
    output: { method: 'webp', encoder: {}, negotiation: { still: true, animated: true } },
    whenNoFormat: 'animated',
    isDefault: true,
    inlineInSvg: true,
  },
  {
    name: 'jpeg',
    aliases: ['jpg'],
    mime: 'image/jpeg',
    ext: 'jpeg',
    sniff: startsWith([0xff, 0xd8, 0xff]),
    output: { method: 'jpeg', encoder: {}, negotiation: { still: true, animated: false } },
    fallbackFor: 'still',
    inlineInSvg: true,
  },
  {
    name: 'png',
    mime: 'image/png',
    ext: 'png',
    sniff: startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    output: { method: 'png', encoder: {}, negotiation: { still: true, animated: false } },
    inlineInSvg: true,
  },
  {
    name: 'gif',
    mime: 'image/gif',
    ext: 'gif',
    sniff: (data) => ascii(data, 0, 4) === 'GIF8',
    output: { method: 'gif', encoder: {}, negotiation: { still: false, animated: true } },
    whenNoFormat: 'animated',
    fallbackFor: 'animated',
    inlineInSvg: true,
  },
  // Read only: any other ISO media file (HEIC photos); after AVIF, which shares the container.
  { name: 'heif', mime: 'image/heif', ext: 'heif', sniff: (data) => isoBrand(data) !== undefined },
  {
    name: 'tiff',
    mime: 'image/tiff',
    ext: 'tiff',
    sniff: (data) => startsWith([0x49, 0x49, 0x2a, 0x00])(data) || startsWith([0x4d, 0x4d, 0x00, 0x2a])(data),
    output: { method: 'tiff', encoder: {} },
  },
  // Read only: served as it came, through the sanitiser (svg-sanitize.ts), unless a format is asked.
  { name: 'svg', mime: 'image/svg+xml', ext: 'svg', sniff: looksLikeSvg, whenNoFormat: 'self' },
];

const byName = new Map(IMAGE_FORMATS.flatMap((f) => [f.name, ...(f.aliases ?? [])].map((n) => [n, f] as const)));

/** The descriptor a name or alias (`jpg`) stands for. */
export function formatNamed(name: string): ImageFormat | undefined {
  return byName.get(name);
}

/** The descriptor of a MIME type, or of `image/{subtype}` as ipx reports a result (`svg+xml`). */
export function formatOfMime(mime: string): ImageFormat | undefined {
  const type = mime.includes('/') ? mime : `image/${mime}`;
  return IMAGE_FORMATS.find((f) => f.mime === type);
}

export function formatOfExt(ext: string): ImageFormat | undefined {
  return IMAGE_FORMATS.find((f) => f.ext === ext);
}

/** The format of a source from its first bytes, or undefined when it is no image this service reads. */
export function sniffFormat(data: Buffer): ImageFormat | undefined {
  return IMAGE_FORMATS.find((f) => f.sniff(data));
}

/** The MIME types an SVG may carry inline as `data:` URIs. */
export const INLINE_SVG_MIMES: readonly string[] = IMAGE_FORMATS.filter((f) => f.inlineInSvg).map((f) => f.mime);

/** The names of the config flags that turn a format on (the image config declares one per name). */
export type FormatFlag = NonNullable<OutputSpec['optIn']>;
export const FORMAT_FLAGS: readonly FormatFlag[] = [...new Set(IMAGE_FORMATS.flatMap((f) => (f.output?.optIn ? [f.output.optIn] : [])))];
