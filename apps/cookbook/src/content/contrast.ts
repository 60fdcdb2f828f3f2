/** WCAG contrast helpers: code colours are nudged at build time so every token reads at AA. */

export const MIN_CODE_CONTRAST = 4.5;

type Rgb = [number, number, number];

export function parseHex(hex: string): Rgb {
  let h = hex.trim().replace(/^#/, '');
  if (h.length === 3 || h.length === 4) h = [...h.slice(0, 3)].map((c) => c + c).join('');
  if (!/^[0-9a-f]{6}/i.test(h)) throw new Error(`not a hex colour: ${hex}`);
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

export function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const la = luminance(parseHex(a));
  const lb = luminance(parseHex(b));
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** The colour itself when it reads well on `bg`, else the nearest mix toward black or white that does. */
export function ensureContrast(fg: string, bg: string, min = MIN_CODE_CONTRAST): string {
  const color = toHex(parseHex(fg));
  if (contrastRatio(color, bg) >= min) return color;
  const target: Rgb = luminance(parseHex(bg)) > 0.5 ? [0, 0, 0] : [255, 255, 255];
  const from = parseHex(color);
  for (let step = 1; step <= 20; step += 1) {
    const t = step / 20;
    const mixed = toHex(from.map((v, i) => v + (target[i]! - v) * t) as Rgb);
    if (contrastRatio(mixed, bg) >= min) return mixed;
  }
  return toHex(target);
}
