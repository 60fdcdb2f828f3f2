/**
 * The output format: webp when none is asked, and `f_auto` chosen from Accept (avif only when
 * enabled). Unlike ipx 3, wildcards (`*\/*`, `image/*`) count, so they give webp rather than jpeg.
 */
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
function qualityOf(entries: AcceptEntry[], mime: string): number {
  const exact = entries.find((e) => e.type === mime);
  if (exact) return exact.q;
  const group = entries.find((e) => e.type === `${mime.split('/')[0]}/*`);
  if (group) return group.q;
  return entries.find((e) => e.type === '*/*')?.q ?? 0;
}

export function negotiateFormat(accept: string | undefined, options: { avif: boolean; animated: boolean }): string {
  const entries = parseAccept(accept);
  if (entries.length === 0) return 'webp';
  const candidates = options.animated ? ['webp', 'gif'] : [...(options.avif ? ['avif'] : []), 'webp', 'jpeg', 'png'];
  let best: string | undefined;
  let bestQ = 0;
  for (const format of candidates) {
    // avif only when the client names it: a wildcard is no promise of AVIF support.
    const q = format === 'avif' ? (entries.find((e) => e.type === 'image/avif')?.q ?? 0) : qualityOf(entries, `image/${format}`);
    if (q > bestQ) {
      best = format;
      bestQ = q;
    }
  }
  return best ?? (options.animated ? 'gif' : 'jpeg');
}

/** Resolves `format`: explicit, `auto` from Accept, or the default marker resolved once the source is known. */
export function chooseFormat(
  requested: string | undefined,
  accept: string | undefined,
  options: { avif: boolean; animated: boolean },
): OutputChoice {
  if (requested === 'auto') return { format: negotiateFormat(accept, options), negotiated: true };
  return { format: requested ?? 'default', negotiated: false };
}
