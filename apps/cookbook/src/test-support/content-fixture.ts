/** Builds a throw-away project folder (content/ and public/) for the content pipeline tests. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { createIconChecker } from '../content/icons.js';

export interface Fixture {
  root: string;
  write(path: string, text: string): Promise<void>;
  remove(path: string): Promise<void>;
  cleanup(): Promise<void>;
}

export function frontMatter(fields: Record<string, unknown>, body = ''): string {
  const yaml = Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join('\n');
  return `---\n${yaml}\n---\n${body}`;
}

export const category = (over: Record<string, unknown> = {}) =>
  frontMatter({ title: 'Git', description: 'Version control.', icon: 'logos:git-icon', cover: '/images/git.png', order: 1, ...over });

export const recipe = (over: Record<string, unknown> = {}, body = 'Some text.\n') =>
  frontMatter({ title: 'Undo', summary: 'Undo a commit.', category: 'git', tags: ['git'], icon: 'lucide:undo-2', ...over }, body);

/** One icon checker for every build in a worker: it keeps the collections it parsed (logos.json is 7 MB). */
export const icons = createIconChecker();

/** A valid project: one category with a 320x180 cover and one recipe. */
export async function createFixture(): Promise<Fixture> {
  const root = await mkdtemp(join(tmpdir(), 'content-test-'));
  const write = async (path: string, text: string) => {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  };
  await mkdir(join(root, 'public', 'images'), { recursive: true });
  await sharp({ create: { width: 320, height: 180, channels: 3, background: '#f05032' } })
    .png()
    .toFile(join(root, 'public/images/git.png'));
  await write('content/categories/git.md', category());
  await write('content/recipes/undo.md', recipe());
  return {
    root,
    write,
    remove: (path) => rm(join(root, path), { force: true }),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/** The text a browser's textContent would give for an HTML fragment. */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
