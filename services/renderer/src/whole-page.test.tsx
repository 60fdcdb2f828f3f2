import { PassThrough } from 'node:stream';
import { Suspense, use, useId, type ReactElement } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { bootstrapScriptTag, createWholePageRenderer } from './whole-page.js';

const NONCE = 'bm9uY2U=';
const BOOTSTRAP = 'window.started = 1 < 2;';

/** What React's stream writes for `element` with the inline bootstrap, all of it. */
function streamed(element: ReactElement): Promise<string> {
  return new Promise((resolve, reject) => {
    const out = new PassThrough();
    let html = '';
    out.on('data', (chunk: Buffer) => (html += chunk.toString('utf8')));
    out.on('end', () => resolve(html));
    const stream = renderToPipeableStream(element, {
      nonce: NONCE,
      bootstrapScriptContent: BOOTSTRAP,
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady: () => stream.pipe(out),
      onShellError: reject,
    });
  });
}

function Labelled({ text }: { text: string }) {
  const id = useId();
  return (
    <label htmlFor={id}>
      {text} <input id={id} defaultValue={`${text} & <more>`} />
    </label>
  );
}

function Page({ title }: { title: string }) {
  return (
    <main className="page">
      <h1>{title}</h1>
      <img src="/hero.webp" alt="" fetchPriority="high" />
      <Suspense fallback={<p>loading</p>}>
        <Labelled text="Search" />
      </Suspense>
      <a href="/category/git" data-discover="true">
        Git {title} <span>{3}</span> recipes
      </a>
    </main>
  );
}

const never = new Promise<string>(() => undefined);
function Waiting({ rendered }: { rendered: () => void }) {
  rendered();
  return <p>{use(never)}</p>;
}
function Throwing(): ReactElement {
  throw new Error('a part failed');
}

describe('a page rendered whole', () => {
  it('gives the bytes React streams for it, bootstrap script included', async () => {
    const element = <Page title="Recipes & tips" />;
    const whole = createWholePageRenderer().render(element, 'pages/index.tsx');
    expect(whole).not.toBeNull();
    expect(whole! + bootstrapScriptTag(NONCE, BOOTSTRAP)).toBe(await streamed(element));
  });

  it('leaves a page that suspends to the stream, and from then on renders it no more', () => {
    const renderer = createWholePageRenderer();
    let renders = 0;
    const element = (
      <Suspense fallback={<p>loading</p>}>
        <Waiting rendered={() => renders++} />
      </Suspense>
    );
    expect(renderer.render(element, 'pages/search.tsx')).toBeNull();
    const first = renders;
    expect(first).toBeGreaterThan(0);
    expect(renderer.render(element, 'pages/search.tsx')).toBeNull();
    expect(renders).toBe(first);
    // Another page is not held to it.
    expect(renderer.render(<Page title="Git" />, 'pages/category/[id].tsx')).toContain('<h1>Git</h1>');
  });

  it('leaves a page whose shell suspends or a part throws to the stream, which reports it', () => {
    const renderer = createWholePageRenderer();
    expect(renderer.render(<Waiting rendered={() => undefined} />, 'pages/a.tsx')).toBeNull();
    expect(
      renderer.render(
        <Suspense fallback={<p>loading</p>}>
          <Throwing />
        </Suspense>,
        'pages/b.tsx',
      ),
    ).toBeNull();
    expect(renderer.render(<Throwing />, 'pages/c.tsx')).toBeNull();
  });
});

describe('the inline bootstrap script', () => {
  it('carries the nonce and refuses a script that would end its element early', () => {
    expect(bootstrapScriptTag(NONCE, BOOTSTRAP)).toBe(`<script nonce="${NONCE}" id="_R_">${BOOTSTRAP}</script>`);
    expect(() => bootstrapScriptTag(NONCE, 'a = "</script><script>alert(1)";')).toThrow(/must not contain/);
    expect(() => bootstrapScriptTag(NONCE, 'a = "<!--";')).toThrow(/must not contain/);
  });
});
