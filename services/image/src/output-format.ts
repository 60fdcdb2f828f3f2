/**
 * The output formats a running service offers (formats.ts, less those whose opt-in flag is off),
 * and the choice among them: the default format when none is asked, and `f_auto` chosen from
 * Accept. Unlike ipx 3, wildcards (`*\/*`, `image/*`) count, so they give webp rather than jpeg.
 */
import { FORMAT_FLAGS, IMAGE_FORMATS, type FormatFlag, type ImageFormat } from './formats.js';

export type OutputChoice = { format: string; negotiated: boolean };

interface AcceptEntry {
  type: string;
  q: number;
}

export function parseAccept(header: string | undefined): AcceptEntry[] {
  if (!header) return [];
  return header.split(',').flatMap((part) => {
    const [type = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    return type && Number.isFinite(q) ? [{ type: type.trim(), q }] : [];
  });
}

/** The quality a client gives a MIME type, from the most specific matching Accept entry. */
function qualityOf(entries: AcceptEntry[], mime: string, namedOnly: boolean): number {
  const exact = entries.find((e) => e.type === mime);
  if (exact || namedOnly) return exact?.q ?? 0;
  const group = entries.find((e) => e.type === `${mime.split('/')[0]}/*`);
  if (group) return group.q;
  return entries.find((e) => e.type === '*/*')?.q ?? 0;
}

/** The formats a service offers, given the opt-in flags of its config (`IMAGE_AVIF`). */
export class OutputFormats {
  readonly offered: readonly ImageFormat[];
  private readonly fallbackName: Record<'still' | 'animated', string>;
  readonly defaultName: string;
  private readonly byName: Map<string, ImageFormat>;

  constructor(flags: Partial<Record<FormatFlag, boolean>>, all: readonly ImageFormat[] = IMAGE_FORMATS) {
    this.byName = new Map(all.flatMap((f) => [f.name, ...(f.aliases ?? [])].map((n) => [n, f] as const)));
    this.offered = all.filter((f) => f.output && (!f.output.optIn || flags[f.output.optIn] === true));
    this.defaultName = required(
      this.offered.find((f) => f.isDefault),
      'default output format',
    ).name;
    this.fallbackName = {
      still: required(
        this.offered.find((f) => f.fallbackFor === 'still'),
        'fallback for still images',
      ).name,
      animated: required(
        this.offered.find((f) => f.fallbackFor === 'animated'),
        'fallback for animated images',
      ).name,
    };
  }

  /** The canonical name of an asked format (`jpg` is `jpeg`), the flag that would offer it, or undefined. */
  check(name: string): { format: string } | { disabledBy: FormatFlag } | undefined {
    const format = this.byName.get(name);
    if (!format?.output) return undefined;
    if (this.offered.includes(format)) return { format: format.name };
    return format.output.optIn ? { disabledBy: format.output.optIn } : undefined;
  }

  /** Names accepted by `f_…`: every offered format, its aliases, and `auto`. */
  names(): string[] {
    return [...this.offered.flatMap((f) => [f.name, ...(f.aliases ?? [])]), 'auto'];
  }

  negotiate(accept: string | undefined, animated: boolean): string {
    const entries = parseAccept(accept);
    if (entries.length === 0) return this.defaultName;
    let best: string | undefined;
    let bestQ = 0;
    for (const format of this.offered) {
      const how = format.output?.negotiation;
      if (!how || !(animated ? how.animated : how.still)) continue;
      const q = qualityOf(entries, format.mime, how.namedOnly === true);
      if (q > bestQ) {
        best = format.name;
        bestQ = q;
      }
    }
    return best ?? this.fallbackName[animated ? 'animated' : 'still'];
  }
}

/**
 * What a transform writes: the asked format, or when none was asked the source itself (`'self'`:
 * an SVG) or the default format, keeping the frames of an animated source whose format animates.
 */
export interface OutputTarget {
  format: string | undefined;
  keepFrames: boolean;
}

export function outputFor(asked: string, source: ImageFormat, pages: number, formats: OutputFormats): OutputTarget {
  if (asked !== 'default') return { format: asked, keepFrames: false };
  if (source.whenNoFormat === 'self') return { format: undefined, keepFrames: false };
  return { format: formats.defaultName, keepFrames: pages > 1 && source.whenNoFormat === 'animated' };
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`formats.ts declares no ${what}`);
  return value;
}

/** Every flag of the config, so a new opt-in format needs no change here. */
export function outputFormatsOf(config: Record<FormatFlag, boolean>): OutputFormats {
  return new OutputFormats(Object.fromEntries(FORMAT_FLAGS.map((flag) => [flag, config[flag]])));
}

/** Resolves `format`: explicit, `auto` from Accept, or the default marker resolved once the source is known. */
export function chooseFormat(
  requested: string | undefined,
  accept: string | undefined,
  formats: OutputFormats,
  animated: boolean,
): OutputChoice {
  if (requested === 'auto') return { format: formats.negotiate(accept, animated), negotiated: true };
  return { format: requested ?? 'default', negotiated: false };
}
