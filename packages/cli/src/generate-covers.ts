/**
 * Makes the cover images in public/images/categories/ from SVG art written here (no network):
 * a two-colour gradient, soft circles and a pattern chosen per category, drawn by sharp into a
 * 1600x900 JPEG. Deterministic, so re-running it changes nothing. Run: `npm run covers`.
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { defaultPublicDir } from '@tern/shared/config/paths';

const WIDTH = 1600;
const HEIGHT = 900;

interface Art {
  from: string;
  to: string;
  accent: string;
  pattern: 'branches' | 'brackets' | 'hexagons' | 'rows' | 'containers' | 'prompt' | 'waves' | 'dots';
}

const coverArt: Record<string, Art> = {
  git: { from: '#7c2d12', to: '#f05032', accent: '#fed7aa', pattern: 'branches' },
  typescript: { from: '#1e3a8a', to: '#3178c6', accent: '#bfdbfe', pattern: 'brackets' },
  nodejs: { from: '#14532d', to: '#539e43', accent: '#bbf7d0', pattern: 'hexagons' },
  postgresql: { from: '#1e293b', to: '#336791', accent: '#cbd5e1', pattern: 'rows' },
  docker: { from: '#0c4a6e', to: '#2496ed', accent: '#bae6fd', pattern: 'containers' },
  shell: { from: '#0f172a', to: '#334155', accent: '#86efac', pattern: 'prompt' },
  css: { from: '#4c1d95', to: '#2965f1', accent: '#ddd6fe', pattern: 'waves' },
  http: { from: '#134e4a', to: '#0d9488', accent: '#99f6e4', pattern: 'dots' },
};

/** A tiny seeded generator so every run draws the same picture. */
function random(seed: string): () => number {
  let h = 2166136261;
  for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507) ^ Math.imul(h ^ (h >>> 13), 3266489909);
    return ((h >>>= 0) % 100000) / 100000;
  };
}

function pattern(art: Art, rnd: () => number): string {
  const a = art.accent;
  const shapes: string[] = [];
  for (let i = 0; i < 14; i += 1) {
    const x = Math.round(rnd() * WIDTH);
    const y = Math.round(rnd() * HEIGHT);
    const s = 40 + Math.round(rnd() * 90);
    const o = (0.12 + rnd() * 0.25).toFixed(2);
    shapes.push(shape(art.pattern, x, y, s, a, o));
  }
  return shapes.join('');
}

function shape(kind: Art['pattern'], x: number, y: number, s: number, a: string, o: string): string {
  const stroke = `fill="none" stroke="${a}" stroke-opacity="${o}" stroke-width="10" stroke-linecap="round" stroke-linejoin="round"`;
  switch (kind) {
    case 'branches':
      return `<path d="M${x} ${y + s * 2}V${y}M${x} ${y + s}C${x} ${y + s / 2} ${x + s} ${y + s / 2} ${x + s} ${y}" ${stroke}/><circle cx="${x + s}" cy="${y}" r="${s / 4}" ${stroke}/>`;
    case 'brackets':
      return `<path d="M${x} ${y}l-${s / 2} ${s / 2} ${s / 2} ${s / 2}M${x + s} ${y}l${s / 2} ${s / 2}-${s / 2} ${s / 2}" ${stroke}/>`;
    case 'hexagons': {
      const pts = [0, 1, 2, 3, 4, 5].map((k) => `${x + s * Math.cos((Math.PI / 3) * k)},${y + s * Math.sin((Math.PI / 3) * k)}`);
      return `<polygon points="${pts.join(' ')}" ${stroke}/>`;
    }
    case 'rows':
      return `<rect x="${x}" y="${y}" width="${s * 3}" height="${s * 1.6}" rx="12" ${stroke}/><path d="M${x} ${y + s * 0.55}h${s * 3}M${x} ${y + s * 1.05}h${s * 3}M${x + s} ${y}v${s * 1.6}" ${stroke}/>`;
    case 'containers':
      return `<rect x="${x}" y="${y}" width="${s * 1.4}" height="${s}" rx="8" ${stroke}/><path d="M${x + s * 0.35} ${y}v${s}M${x + s * 0.7} ${y}v${s}M${x + s * 1.05} ${y}v${s}" ${stroke}/>`;
    case 'prompt':
      return `<path d="M${x} ${y}l${s / 2} ${s / 2}-${s / 2} ${s / 2}M${x + s * 0.8} ${y + s}h${s}" ${stroke}/>`;
    case 'waves':
      return `<path d="M${x} ${y}q${s / 2}-${s / 2} ${s} 0t${s} 0 ${s} 0" ${stroke}/>`;
    case 'dots':
      return `<circle cx="${x}" cy="${y}" r="${s / 5}" fill="${a}" fill-opacity="${o}"/><path d="M${x + s / 3} ${y}h${s * 1.5}" ${stroke}/>`;
  }
}

function coverSvg(id: string, art: Art): string {
  const rnd = random(id);
  const glow = [0, 1, 2]
    .map(
      () =>
        `<circle cx="${Math.round(rnd() * WIDTH)}" cy="${Math.round(rnd() * HEIGHT)}" r="${200 + Math.round(rnd() * 260)}" fill="${art.accent}" fill-opacity="0.10"/>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${art.from}"/><stop offset="1" stop-color="${art.to}"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>${glow}${pattern(art, rnd)}</svg>`;
}

async function main(): Promise<void> {
  const dir = join(defaultPublicDir, 'images', 'categories');
  await mkdir(dir, { recursive: true });
  for (const [id, art] of Object.entries(coverArt)) {
    const file = join(dir, `${id}.jpg`);
    const jpeg = await sharp(Buffer.from(coverSvg(id, art)))
      .jpeg({ quality: 80, mozjpeg: true })
      .toBuffer();
    await writeFile(file, jpeg);
    process.stdout.write(`covers: ${file} ${Math.round((await stat(file)).size / 1024)} KB\n`);
  }
}

await main();
