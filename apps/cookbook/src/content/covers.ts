/** Cover images: the file must exist under public/ and be an image whose size sharp can read. */
import { stat } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import sharp from 'sharp';

export interface ImageSize {
  width: number;
  height: number;
}

export type CoverResult = { size: ImageSize; problem?: undefined } | { size?: undefined; problem: string };

export async function readCover(publicDir: string, src: string): Promise<CoverResult> {
  const file = normalize(join(publicDir, src));
  if (!file.startsWith(normalize(publicDir) + sep)) return { problem: `"${src}" points outside public/` };
  try {
    await stat(file);
  } catch {
    return { problem: `file public${src} does not exist` };
  }
  try {
    const meta = await sharp(file).metadata();
    if (!meta.width || !meta.height) return { problem: `public${src} has no readable size` };
    return { size: { width: meta.width, height: meta.height } };
  } catch (error) {
    return { problem: `public${src} is not a readable image (${(error as Error).message})` };
  }
}
