import { describe, expect, it } from 'vitest';
import { withoutServerExports } from './server-exports-plugin.js';

const page = `import { createError } from '@tern/shared/errors/errors';
// “Quotes” and é before the loader: offsets are in UTF-16 code units.
export const validate = () => true;
export async function loader({ params }: { params: Record<string, string> }) {
  if (!params.id) throw createError({ statusCode: 404 });
  return { id: params.id };
}
type Data = Awaited<ReturnType<typeof loader>>;
export function head({ data }: { data: unknown }) {
  return { title: (data as Data).id };
}
export default function Page() {
  return null;
}
`;

describe('withoutServerExports', () => {
  it('blanks the loader out, keeping every other character where it was', () => {
    const out = withoutServerExports(page, 'page.tsx')!;
    expect(out).not.toContain('createError({');
    expect(out).not.toMatch(/function loader/);
    expect(out).toHaveLength(page.length);
    expect(out.split('\n')).toHaveLength(page.split('\n').length);
    for (const kept of ['export const validate', 'export function head', 'export default function Page']) {
      expect(out.indexOf(kept)).toBe(page.indexOf(kept));
    }
  });

  it('takes `export const loader = …` too, and leaves a page without a loader alone', () => {
    const loader = 'export const loader = async () => 1;';
    expect(withoutServerExports(`${loader}\nexport default 1;\n`, 'a.tsx')).toBe(`${' '.repeat(loader.length)}\nexport default 1;\n`);
    expect(withoutServerExports('export const head = {};\n', 'b.tsx')).toBeNull();
  });

  it('refuses a loader it cannot take out on its own', () => {
    expect(() => withoutServerExports('async function loader() {}\nexport { loader };\n', 'c.tsx')).toThrow(/where it is declared/);
    expect(() => withoutServerExports('export const loader = 1, other = 2;\n', 'd.tsx')).toThrow(/on its own/);
  });
});
