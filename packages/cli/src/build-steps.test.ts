import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { iconNamesInText } from '@tern/vite-plugin/icon-bundle';
import { ICON_NAME_IN_TEXT, iconNamesIn } from './build-steps.mjs';

describe('the renderer step keyed by the content icon names', () => {
  it('finds names as the icon bundle does (the same pattern)', () => {
    const text = JSON.stringify({ a: 'lucide:git-branch', b: 'not an icon', c: ['logos:react', 'lucide:git-branch'] });
    for (const name of iconNamesInText(text)) expect(iconNamesIn(write(text))).toContain(name);
    expect(iconNamesIn(write(text))).toBe('logos:react,lucide:git-branch');
  });

  it('changes with a name, not with other text', () => {
    const before = iconNamesIn(write(JSON.stringify({ html: '<p>one</p>', icon: 'lucide:star' })));
    expect(iconNamesIn(write(JSON.stringify({ html: '<p>two, edited</p>', icon: 'lucide:star' })))).toBe(before);
    expect(iconNamesIn(write(JSON.stringify({ html: '<p>one</p>', icon: 'lucide:moon' })))).not.toBe(before);
  });

  it('says a missing file is missing', () => {
    expect(iconNamesIn(join(tmpdir(), 'no-such-content.json'))).toBe('missing');
  });
});

it('holds the same pattern as packages/vite-plugin/src/icon-bundle.ts', async () => {
  const { readFileSync } = await import('node:fs');
  const source = readFileSync(join(import.meta.dirname, '..', '..', 'vite-plugin', 'src', 'icon-bundle.ts'), 'utf8');
  expect(source).toContain(`const NAME_IN_TEXT = ${ICON_NAME_IN_TEXT.toString()};`);
});

function write(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'icon-names-')), 'content.json');
  writeFileSync(file, text);
  return file;
}
