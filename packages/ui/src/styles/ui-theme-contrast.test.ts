import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** WCAG 2 relative luminance and contrast ratio, from sRGB hex. */
function luminance(hex: string): number {
  const n = hex.replace('#', '');
  const full = n.length === 3 ? [...n].map((c) => c + c).join('') : n;
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const css = readFileSync(new URL('./app.css', import.meta.url), 'utf8');
/** The tokens of one mode, from the `--ui-name: light-dark(#light, #dark);` pairs on :root. */
function tokens(mode: 'light' | 'dark'): Record<string, string> {
  const block = css.match(/\n:root \{([^}]*)\}/)?.[1] ?? '';
  const pairs = [...block.matchAll(/--ui-([a-z-]+):\s*light-dark\((#[0-9a-fA-F]{3,6}),\s*(#[0-9a-fA-F]{3,6})\);/g)];
  return Object.fromEntries(pairs.map((m) => [m[1], mode === 'light' ? m[2] : m[3]]));
}

const TEXT_TOKENS = ['primary', 'secondary', 'success', 'info', 'warning', 'error', 'neutral', 'text', 'text-muted'];
const BACKGROUNDS = ['bg', 'bg-elevated', 'bg-muted'];

describe.each(['light', 'dark'] as const)('theme tokens in %s mode', (mode) => {
  const t = tokens(mode);

  it('define every colour of docs/spec.md §4', () => {
    for (const name of [...TEXT_TOKENS, ...BACKGROUNDS, 'on-color']) expect(t[name], name).toMatch(/^#/);
  });

  it.each(TEXT_TOKENS.flatMap((fg) => BACKGROUNDS.map((bg) => [fg, bg] as const)))('%s on %s meets AA (4.5:1)', (fg, bg) => {
    expect(contrast(t[fg] ?? '', t[bg] ?? '')).toBeGreaterThanOrEqual(4.5);
  });

  it.each(['primary', 'secondary', 'success', 'info', 'warning', 'error'])('on-color text on %s meets AA', (name) => {
    expect(contrast(t['on-color'] ?? '', t[name] ?? '')).toBeGreaterThanOrEqual(4.5);
  });
});

it('the contrast helper agrees with known pairs', () => {
  expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
  expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
});

describe('the colour scheme each state of <html> asks for', () => {
  it('follows the operating system without a class, and the class when the head script set one', () => {
    expect(css).toMatch(/\n:root \{\s*color-scheme: light dark;/);
    expect(css).toMatch(/\n:root\.light \{\s*color-scheme: light;\s*\}/);
    expect(css).toMatch(/\n:root\.dark \{\s*color-scheme: dark;\s*\}/);
  });
});
