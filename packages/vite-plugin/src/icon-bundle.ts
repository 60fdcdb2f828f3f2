/**
 * Builds the icon bundle: the drawable data of every icon the site is known to use, so the
 * server renders inline SVG and hydration draws the same markup with no request.
 * Names come from the UI registry, literal `collection:name` strings in the app's source and
 * any such string in the content JSON written before the Vite build.
 */
import { existsSync, readdirSync, readFileSync, statSync, type Dirent, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { IconifyJSON } from '@iconify/types';
import { iconSvgFromSet } from '@tern/runtime/shared/icon-set';
import { parseIconName, type IconSvg } from '@tern/runtime/shared/icons';

const require = createRequire(import.meta.url);
const ICONIFY_JSON_DIR = join(dirname(require.resolve('@iconify/json/package.json')), 'json');
const NAME_IN_TEXT = /["'`]([a-z0-9]+(?:-[a-z0-9]+)*:[a-z0-9]+(?:-[a-z0-9]+)*)["'`]/g;
const SOURCE_FILE = /\.(tsx?|jsx?|mdx?|json)$/;
/**
 * Folders of tests and their data, never scanned. `test-support` is where a package keeps the
 * fixtures its tests share (a site's shared content fixtures named two icons only its data draws:
 * ~0.4 KB br in every page's first load until the folder was left out).
 */
const TEST_FOLDERS = new Set(['test', 'tests', 'test-support', 'fixtures', '__tests__']);
const NOT_SOURCE_FOLDERS = new Set(['node_modules', 'dist']);

let knownCollections: Set<string> | null = null;

/** Prefixes @iconify/json ships, so a string like "note:remember" is not mistaken for an icon. */
export function isKnownCollection(prefix: string): boolean {
  knownCollections ??= new Set(Object.keys(JSON.parse(readFileSync(join(ICONIFY_JSON_DIR, '..', 'collections.json'), 'utf8')) as object));
  return knownCollections.has(prefix);
}

/** Every `collection:name` literal in a text whose collection exists. */
export function iconNamesInText(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(NAME_IN_TEXT)) {
    const name = match[1] ?? '';
    const parsed = parseIconName(name);
    if (parsed && isKnownCollection(parsed.collection)) names.push(name);
  }
  return names;
}

/**
 * The files under `dirs` (recursively) that may name icons. A site's build output (`dist`) is not
 * source: the build writes into it while this runs (the icon indexes land as `*.tmp` files and are
 * renamed), and its bundles would only repeat names the source already gives.
 */
export function sourceFiles(dirs: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of entriesOf(dir)) {
      const name = entry.name;
      // Tests and their fixtures name icons no page draws: their names would ship in every page's bundle.
      if (NOT_SOURCE_FOLDERS.has(name) || TEST_FOLDERS.has(name) || name.startsWith('.')) continue;
      const path = join(dir, name);
      const kind = entry.isSymbolicLink() ? statOf(path) : entry;
      if (kind?.isDirectory()) walk(path);
      else if (kind?.isFile() && SOURCE_FILE.test(name) && !/\.test\.tsx?$/.test(name)) files.push(path);
    }
  };
  for (const dir of dirs) if (existsSync(dir)) walk(dir);
  return files;
}

/** A folder's entries, typed by readdir itself (no stat of a file another process may be renaming); none once it is gone. */
const entriesOf = (dir: string): Dirent[] => unlessGone(() => readdirSync(dir, { withFileTypes: true })) ?? [];
/** What a link points at; undefined for a link to nothing. */
const statOf = (path: string): Stats | undefined => unlessGone(() => statSync(path));

function unlessGone<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Reads the named icons from @iconify/json, one collection file at a time; absent names are skipped. */
export function buildIconBundle(names: Iterable<string>, warn: (message: string) => void = () => {}): Record<string, IconSvg> {
  const byCollection = new Map<string, Set<string>>();
  for (const fullName of names) {
    const parsed = parseIconName(fullName);
    if (!parsed || !isKnownCollection(parsed.collection)) continue;
    const set = byCollection.get(parsed.collection) ?? new Set<string>();
    set.add(parsed.name);
    byCollection.set(parsed.collection, set);
  }
  const bundle: Record<string, IconSvg> = {};
  for (const [collection, wanted] of [...byCollection].sort(([a], [b]) => a.localeCompare(b))) {
    const set = JSON.parse(readFileSync(join(ICONIFY_JSON_DIR, `${collection}.json`), 'utf8')) as IconifyJSON;
    for (const name of [...wanted].sort()) {
      const svg = iconSvgFromSet(set, name);
      if (svg) bundle[`${collection}:${name}`] = svg;
      else warn(`icon bundle: "${collection}:${name}" is not in @iconify/json; it will be fetched at runtime`);
    }
  }
  return bundle;
}
