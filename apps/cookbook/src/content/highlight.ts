/**
 * Server-side highlighting with shiki, in light and dark at once. Token colours become classes
 * (not inline styles) so a strict Content-Security-Policy needs no 'unsafe-inline'; the
 * stylesheet they need is collected across the whole build by `codeStylesheet()`.
 */
import { bundledLanguagesInfo, createHighlighter, type BundledLanguage, type Highlighter, type ThemedToken } from 'shiki';
import { escapeHtml } from '@tern/shared/errors/errors';
import { ensureContrast } from './contrast.js';

export const CODE_THEMES = { light: 'github-light', dark: 'github-dark' } as const;
/** The root selector the site's colour mode sets for dark pages. */
export const DARK_SELECTOR = 'html.dark';
/** Fences with these names are shown as plain text. */
const PLAIN = new Set(['text', 'txt', 'plain', 'plaintext', '']);

interface LanguageInfo {
  id: string;
  name: string;
}

/** A fence's language as shiki knows it, or undefined when shiki does not know it. */
export function resolveLanguage(fence: string): LanguageInfo | undefined {
  const name = fence.toLowerCase();
  if (PLAIN.has(name)) return { id: 'text', name: 'Text' };
  const info = bundledLanguagesInfo.find((l) => l.id === name || l.aliases?.includes(name));
  // shiki calls every shell "Shell"; a reader copying a Bash snippet wants to see "Bash".
  return info && { id: info.id, name: name === 'bash' ? 'Bash' : info.name };
}

export interface CodeHighlighter {
  /** The `<pre>` of one block; its text content is exactly `code`. */
  highlight(code: string, languageId: string): string;
  /** The CSS for every colour class handed out so far. */
  stylesheet(): string;
}

/**
 * One shiki per process, grammars added as the content asks for them, and the tokens of every block
 * already seen: tokenizing is nearly all of a content build, so a rebuild in `npm run dev` after a
 * Markdown edit redoes only the blocks that changed.
 */
let shared: Promise<Highlighter> | undefined;
const tokensSeen = new Map<string, ThemedToken[][]>();
const TOKENS_KEPT_MAX = 5000;

async function shikiWith(langs: BundledLanguage[]): Promise<Highlighter> {
  shared ??= createHighlighter({ themes: [CODE_THEMES.light, CODE_THEMES.dark], langs: [] });
  const shiki = await shared;
  const missing = langs.filter((lang) => !shiki.getLoadedLanguages().includes(lang));
  if (missing.length > 0) await shiki.loadLanguage(...missing);
  return shiki;
}

function tokensOf(shiki: Highlighter, code: string, lang: BundledLanguage): ThemedToken[][] {
  const key = `${lang}\n${code}`;
  let tokens = tokensSeen.get(key);
  if (!tokens) {
    tokens = shiki.codeToTokens(code, { lang, themes: CODE_THEMES }).tokens;
    if (tokensSeen.size >= TOKENS_KEPT_MAX) tokensSeen.clear();
    tokensSeen.set(key, tokens);
  }
  return tokens;
}

export async function createCodeHighlighter(languageIds: Iterable<string>): Promise<CodeHighlighter> {
  const langs = [...new Set(languageIds)].filter((id) => id !== 'text') as BundledLanguage[];
  const shiki = await shikiWith(langs);
  const light = shiki.getTheme(CODE_THEMES.light);
  const dark = shiki.getTheme(CODE_THEMES.dark);
  const palette = createPalette({ light: light.bg, dark: dark.bg });
  const plain = palette.classFor(light.fg, dark.fg, '');

  return {
    highlight(code, languageId) {
      const source = code.replace(/\n$/, '');
      if (languageId === 'text') return wrapPre(escapeHtml(source), plain);
      const tokens = tokensOf(shiki, source, languageId as BundledLanguage);
      const lines = tokens.map((line) =>
        line
          .map((token) => {
            const style = token.htmlStyle ?? {};
            const cls = palette.classFor(style.color ?? light.fg, style['--shiki-dark'] ?? dark.fg, style['font-style'] ?? '');
            // Tokens in the block's own colour (mostly whitespace) need no span.
            return cls === plain ? escapeHtml(token.content) : `<span class="${cls}">${escapeHtml(token.content)}</span>`;
          })
          .join(''),
      );
      return wrapPre(lines.map((l) => `<span class="line">${l}</span>`).join('\n'), plain);
    },
    stylesheet: () => palette.css(light.bg, dark.bg, light.fg, dark.fg),
  };
}

function wrapPre(inner: string, plainClass: string): string {
  // tabindex: a scrollable block must be reachable by keyboard (axe: scrollable-region-focusable).
  return `<pre class="shiki ${plainClass}" tabindex="0"><code>${inner}</code></pre>`;
}

function createPalette(bg: { light: string; dark: string }) {
  const classes = new Map<string, { name: string; light: string; dark: string; fontStyle: string }>();
  return {
    classFor(lightColor: string, darkColor: string, fontStyle: string): string {
      const l = ensureContrast(lightColor, bg.light);
      const d = ensureContrast(darkColor, bg.dark);
      const key = `${l}|${d}|${fontStyle}`;
      let entry = classes.get(key);
      if (!entry) {
        entry = { name: `ct${classes.size}`, light: l, dark: d, fontStyle };
        classes.set(key, entry);
      }
      return entry.name;
    },
    css(lightBg: string, darkBg: string, lightFg: string, darkFg: string): string {
      const rules = [
        `[data-code-block] pre.shiki{background:${lightBg};color:${lightFg}}`,
        `${DARK_SELECTOR} [data-code-block] pre.shiki{background:${darkBg};color:${darkFg}}`,
      ];
      for (const c of classes.values()) {
        const font = c.fontStyle ? `;font-style:${c.fontStyle}` : '';
        rules.push(`[data-code-block] .${c.name}{color:${c.light}${font}}`);
        rules.push(`${DARK_SELECTOR} [data-code-block] .${c.name}{color:${c.dark}}`);
      }
      return `${rules.join('\n')}\n`;
    },
  };
}
