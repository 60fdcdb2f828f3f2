/** Reads the Markdown files of content/: categories/*.md and recipes/**\/*.md, with their front matter. */
import { readdir, readFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import matter from 'gray-matter';
import type { IssueList } from './issues.js';

export interface SourceFile {
  /** Path relative to the project root, for messages. */
  file: string;
  /** The file name without `.md`: the entry's id. */
  id: string;
  data: Record<string, unknown>;
  body: string;
}

async function markdownFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Every Markdown file under `dir`; a file whose front matter does not parse becomes an issue. */
export async function readSources(dir: string, rootDir: string, issues: IssueList): Promise<SourceFile[]> {
  const sources: SourceFile[] = [];
  for (const path of await markdownFiles(dir)) {
    const file = relative(rootDir, path);
    try {
      // An empty options object disables gray-matter's cache, which would share parsed data between files.
      const parsed = matter(await readFile(path, 'utf8'), {});
      sources.push({ file, id: basename(path, '.md'), data: parsed.data as Record<string, unknown>, body: parsed.content });
    } catch (error) {
      issues.add(file, '(front matter)', `is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  return sources;
}
