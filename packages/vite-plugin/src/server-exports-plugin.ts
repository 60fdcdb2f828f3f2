/**
 * Vite plugin, browser build only: takes a page module's `loader` out of the browser's copy. A
 * loader runs on the server alone (the browser fetches the page's payload, runtime/client/payload-fetch.ts),
 * yet as an export of the page module it kept itself and everything it imports (error catalogues,
 * the services' accessors, the search's limits) in the page's chunk or the entry. React Router's
 * framework mode does the same for `loader` and `action`. Tree-shaking then drops the imports only
 * the loader used, where their modules have no side effects.
 */
import { parseAst } from 'rolldown/parseAst';
import type { Plugin } from 'vite';

/** Exports of a page module that only the server reads (runtime/server/page-loader.ts). */
export const SERVER_ONLY_PAGE_EXPORTS = ['loader'] as const;

interface Span {
  start: number;
  end: number;
}

type Statement = ReturnType<typeof parseAst>['body'][number];

/** The span of `statement` when it is `export [async] function loader` or `export const loader = …`. */
function serverOnlySpan(statement: Statement): Span | null {
  if (statement.type !== 'ExportNamedDeclaration') return null;
  const declaration = statement.declaration;
  const named = (name: string | undefined) => (SERVER_ONLY_PAGE_EXPORTS as readonly (string | undefined)[]).includes(name);
  if (declaration?.type === 'FunctionDeclaration' && named(declaration.id?.name)) return statement;
  if (declaration?.type === 'VariableDeclaration') {
    const names = declaration.declarations.map((d) => (d.id.type === 'Identifier' ? d.id.name : undefined));
    if (names.some(named)) {
      if (names.length > 1) throw new Error('declare a page loader on its own: `export const loader = …;`');
      return statement;
    }
  }
  if (statement.specifiers.some((s) => s.exported.type === 'Identifier' && named(s.exported.name))) {
    throw new Error('export a page loader where it is declared (`export async function loader`), not in a list');
  }
  return null;
}

/**
 * `code` without its server-only exports, or null when it has none. Each is blanked out rather
 * than cut (spaces, its line breaks kept), so every other character keeps its line and column and
 * the source map needs no change.
 */
export function withoutServerExports(code: string, file: string): string | null {
  const program = parseAst(code, { lang: 'tsx', sourceType: 'module' }, file);
  const spans = program.body.map(serverOnlySpan).filter((span): span is Span => span !== null);
  if (spans.length === 0) return null;
  let out = code;
  for (const { start, end } of spans) {
    out = out.slice(0, start) + out.slice(start, end).replace(/[^\r\n]/g, ' ') + out.slice(end);
  }
  return out;
}

/** Strips the server-only exports of the page modules under `pagesDir` from the browser build. */
export function serverExportsPlugin(pagesDir: string): Plugin {
  const prefix = pagesDir.replace(/\\/g, '/').replace(/\/?$/, '/');
  return {
    name: 'platform:server-exports',
    apply: 'build',
    // On the source, before TypeScript is stripped; the code does not move, so `map: null` keeps the maps.
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.name === 'client',
    transform: {
      filter: { id: /\.tsx$/ },
      handler(code, id) {
        const file = id.split('?')[0]!.replace(/\\/g, '/');
        if (!file.startsWith(prefix)) return null;
        const stripped = withoutServerExports(code, file);
        return stripped === null ? null : { code: stripped, map: null };
      },
    },
  };
}
