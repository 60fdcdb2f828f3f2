import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIconBundle, iconNamesInText, isKnownCollection, sourceFiles } from './icon-bundle.js';
import { ICON_BUNDLE_ID, iconBundlePlugin } from './icon-bundle-plugin.js';
import { UI_ICON_NAMES } from '@tern/runtime/shared/icons-registry';
import { scopeSvgIds } from '@tern/runtime/shared/icons';

const dir = mkdtempSync(join(tmpdir(), 'icon-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('icon names in text', () => {
  it('finds quoted collection:name literals of known collections only', () => {
    const text = `<Icon name="lucide:chef-hat" /> {"icon":"mdi:pasta"} 'foo:bar' "note: x" "lucide:Bad" \`tabler:home\``;
    expect(iconNamesInText(text)).toEqual(['lucide:chef-hat', 'mdi:pasta', 'tabler:home']);
    expect(isKnownCollection('lucide')).toBe(true);
    expect(isKnownCollection('constructor')).toBe(false);
  });
});

describe('icon bundle', () => {
  it('resolves icons and aliases from @iconify/json and skips unknown names with a warning', () => {
    const warnings: string[] = [];
    const bundle = buildIconBundle(['lucide:x', 'lucide:alarm-check', 'lucide:not-an-icon', 'nope:x', 'bad'], (m) => warnings.push(m));
    expect(Object.keys(bundle).sort()).toEqual(['lucide:alarm-check', 'lucide:x']);
    expect(bundle['lucide:x']).toMatchObject({ viewBox: '0 0 24 24', aspect: 1 });
    expect(bundle['lucide:x']?.body).toContain('<path');
    expect(warnings).toEqual(['icon bundle: "lucide:not-an-icon" is not in @iconify/json; it will be fetched at runtime']);
  });

  it('the plugin serves the virtual module with UI icons, source literals and content names', async () => {
    const src = join(dir, 'src');
    mkdirSync(src);
    writeFileSync(join(src, 'page.tsx'), 'export const a = <Icon name="mdi:home" />;');
    writeFileSync(join(src, 'page.test.tsx'), 'const b = "mdi:account";');
    const content = join(dir, 'content.json');
    writeFileSync(content, JSON.stringify({ categories: [{ id: 'pasta', icon: 'tabler:bowl' }] }));
    const plugin = iconBundlePlugin({ dataFiles: [content, join(dir, 'not-built-yet.json')], sourceDirs: [src], icons: ['lucide:heart'] });
    const watched: string[] = [];
    const context = { addWatchFile: (f: string) => watched.push(f), warn: () => {} };
    const resolveId = plugin.resolveId as unknown as (id: string) => string | null;
    const load = plugin.load as unknown as (this: typeof context, id: string) => string | null;
    const resolved = resolveId(ICON_BUNDLE_ID);
    expect(resolved).toBe('\0virtual:icon-bundle');
    expect(resolveId('other')).toBeNull();
    const code = load.call(context, resolved ?? '') ?? '';
    const bundle = JSON.parse(code.replace(/^export default /, '').replace(/;$/, '')) as Record<string, unknown>;
    expect(Object.keys(bundle)).toEqual(expect.arrayContaining([...UI_ICON_NAMES, 'mdi:home', 'tabler:bowl', 'lucide:heart']));
    expect(bundle).not.toHaveProperty(['mdi:account']);
    expect(watched).toEqual(expect.arrayContaining([content, join(src, 'page.tsx')]));
  });

  it("leaves the content's icons out of the client environment's bundle (the browser adopts them from the HTML)", () => {
    const src = join(dir, 'src-client');
    mkdirSync(src);
    writeFileSync(join(src, 'page.tsx'), 'export const a = <Icon name="mdi:home" />;');
    const content = join(dir, 'content-client.json');
    writeFileSync(content, JSON.stringify({ categories: [{ id: 'pasta', icon: 'tabler:bowl' }] }));
    const plugin = iconBundlePlugin({ dataFiles: [content], sourceDirs: [src] });
    const load = plugin.load as unknown as (this: object, id: string) => string | null;
    const bundleIn = (environment: string) => {
      const context = { addWatchFile: () => {}, warn: () => {}, environment: { name: environment } };
      const code = load.call(context, '\0virtual:icon-bundle') ?? '';
      return Object.keys(JSON.parse(code.replace(/^export default /, '').replace(/;$/, '')) as object);
    };
    expect(bundleIn('ssr')).toEqual(expect.arrayContaining(['mdi:home', 'tabler:bowl']));
    expect(bundleIn('client')).toContain('mdi:home');
    expect(bundleIn('client')).not.toContain('tabler:bowl');
  });
});

describe('SVG ids', () => {
  it('scopes ids and their references the same way every time', () => {
    const body = '<defs><mask id="a"><path/></mask></defs><g mask="url(#a)"/><use href="#a"/><g id="ab"/>';
    const out = scopeSvgIds(body, ':r1:');
    expect(out).toBe('<defs><mask id="r1-a"><path/></mask></defs><g mask="url(#r1-a)"/><use href="#r1-a"/><g id="r1-ab"/>');
    expect(scopeSvgIds(body, ':r1:')).toBe(out);
    expect(scopeSvgIds('<path d="M0"/>', 'x')).toBe('<path d="M0"/>');
  });
});

describe('the source scanned for icon names', () => {
  it('leaves out tests and their fixtures: no page draws the icons they name', () => {
    const site = join(dir, 'scanned-site');
    for (const folder of ['app', 'test', 'app/fixtures', 'test-support']) mkdirSync(join(site, folder), { recursive: true });
    writeFileSync(join(site, 'app', 'page.tsx'), "<Icon name='lucide:x' />");
    writeFileSync(join(site, 'app', 'page.test.tsx'), "<Icon name='lucide:sun' />");
    writeFileSync(join(site, 'test', 'content-fixture.ts'), "icon: 'logos:git-icon'");
    writeFileSync(join(site, 'app', 'fixtures', 'sample.ts'), "icon: 'lucide:moon'");
    writeFileSync(join(site, 'test-support', 'content-fixture.ts'), "icon: 'lucide:undo-2'");
    expect(sourceFiles([site]).map((file) => file.slice(site.length))).toEqual(['/app/page.tsx']);
  });

  it('leaves out the build output, which the build writes while the scan runs, and links to nothing', () => {
    const site = join(dir, 'built-site');
    for (const folder of ['app', 'dist/icons', 'node_modules/x']) mkdirSync(join(site, folder), { recursive: true });
    writeFileSync(join(site, 'app', 'page.tsx'), "<Icon name='lucide:x' />");
    writeFileSync(join(site, 'dist', 'icons', 'f7.json.tmp'), '"lucide:sun"');
    writeFileSync(join(site, 'node_modules', 'x', 'index.js'), "'lucide:moon'");
    symlinkSync(join(site, 'renamed-away.ts'), join(site, 'app', 'gone.ts'));
    symlinkSync(join(site, 'app'), join(site, 'linked-app'));
    expect(
      sourceFiles([site])
        .map((file) => file.slice(site.length))
        .sort(),
    ).toEqual(['/app/page.tsx', '/linked-app/page.tsx']);
  });
});
