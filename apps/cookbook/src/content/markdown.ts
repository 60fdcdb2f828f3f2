/**
 * Markdown to HTML for recipes: raw HTML is escaped (html: false), headings get anchors prefixed
 * with the recipe id (one category page holds many recipes), external links open safely, and
 * fenced code becomes a `<figure data-code-block>` highlighted on the server.
 */
import markdownIt, { type Env, type MarkdownIt, type StateCore, type Token } from 'markdown-it';
import { escapeHtml } from '@tern/shared/errors/errors';
import type { CodeHighlighter } from './highlight.js';
import { resolveLanguage } from './highlight.js';
import { slugify } from './slug.js';
import type { ContentHeading } from './types.js';

/** Recipe bodies start at h3: the category page renders the recipe title as h2. */
export const MIN_BODY_HEADING_LEVEL = 3;

export interface RenderedMarkdown {
  html: string;
  headings: ContentHeading[];
  /** Language names of the code blocks, in order of first appearance. */
  languages: string[];
}

export interface MarkdownProblem {
  field: string;
  message: string;
}

interface RenderEnv extends Env {
  anchorPrefix: string;
  headings: ContentHeading[];
  languages: string[];
}

function createParser(): MarkdownIt {
  return markdownIt({ html: false, linkify: false, typographer: true });
}

/** Problems a body has before rendering: unknown code languages and headings above h3. */
export function checkMarkdown(body: string): MarkdownProblem[] {
  const problems: MarkdownProblem[] = [];
  for (const token of createParser().parse(body, {})) {
    if (token.type === 'fence') {
      const fence = fenceLanguage(token);
      if (!resolveLanguage(fence)) problems.push({ field: `body (line ${lineOf(token)})`, message: `unknown code block language "${fence}"` });
    }
    if (token.type === 'heading_open' && Number(token.tag.slice(1)) < MIN_BODY_HEADING_LEVEL) {
      problems.push({ field: `body (line ${lineOf(token)})`, message: `heading level ${token.tag} is not allowed; start at h${MIN_BODY_HEADING_LEVEL} (###)` });
    }
  }
  return problems;
}

/** The shiki language ids a body's fences need. */
export function languagesOf(body: string): string[] {
  return createParser()
    .parse(body, {})
    .filter((t) => t.type === 'fence')
    .flatMap((t) => resolveLanguage(fenceLanguage(t))?.id ?? []);
}

export function createMarkdownRenderer(highlighter: CodeHighlighter) {
  const md = createParser();
  md.core.ruler.push('heading_ids', assignHeadingIds);
  md.renderer.rules.fence = (tokens, idx, _options, env) => renderFence(tokens[idx]!, highlighter, env as RenderEnv);
  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!;
    if (isExternal(String(token.attrGet('href') ?? ''))) {
      token.attrSet('target', '_blank');
      token.attrSet('rel', 'noopener noreferrer');
    }
    return defaultLinkOpen(tokens, idx, options, env, self);
  };

  return function renderMarkdown(body: string, anchorPrefix: string): RenderedMarkdown {
    const env: RenderEnv = { anchorPrefix, headings: [], languages: [] };
    const html = md.render(body, env);
    return { html, headings: env.headings, languages: env.languages };
  };
}

function assignHeadingIds(state: StateCore): void {
  const { tokens } = state;
  const env = state.env as RenderEnv;
  const used = new Set<string>();
  tokens.forEach((token, i) => {
    if (token.type !== 'heading_open') return;
    const inline = tokens[i + 1];
    const text = (inline?.children ?? []).filter((c) => c.type === 'text' || c.type === 'code_inline').map((c) => c.content).join('');
    const base = `${env.anchorPrefix}-${slugify(text) || 'section'}`;
    let id = base;
    for (let n = 2; used.has(id); n += 1) id = `${base}-${n}`;
    used.add(id);
    token.attrSet('id', id);
    env.headings.push({ id, text, level: Number(token.tag.slice(1)) });
    // The heading's text becomes its own link: one clear accessible name, no stray "#".
    if (inline?.children) {
      const open = new state.Token('link_open', 'a', 1);
      open.attrs = [['href', `#${id}`], ['class', 'heading-anchor']];
      const close = new state.Token('link_close', 'a', -1);
      inline.children = [open, ...inline.children, close];
    }
  });
}

function renderFence(token: Token, highlighter: CodeHighlighter, env: RenderEnv): string {
  const language = resolveLanguage(fenceLanguage(token)) ?? { id: 'text', name: 'Text' };
  if (!env.languages.includes(language.name)) env.languages.push(language.name);
  const pre = highlighter.highlight(token.content, language.id);
  const label = escapeHtml(language.name);
  return `<figure class="code-block" data-code-block data-language="${escapeHtml(language.id)}"><figcaption data-code-language>${label}</figcaption>${pre}</figure>\n`;
}

function fenceLanguage(token: Token): string {
  return token.info.trim().split(/\s+/)[0] ?? '';
}

function lineOf(token: Token): number {
  return (token.map?.[0] ?? 0) + 1;
}

function isExternal(href: string): boolean {
  return /^(https?:)?\/\//i.test(href);
}
