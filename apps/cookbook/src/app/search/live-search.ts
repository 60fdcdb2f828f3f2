/**
 * Results as the visitor types, in any search box (search/search-enhancer.ts imports this on first
 * use). The search page draws its own results (pages/search.tsx, use-live-search.ts); any other box
 * gets a list under it, a combobox (ARIA 1.2): arrow keys move through the results, Enter opens
 * the one chosen (otherwise the form submits as usual), Escape closes the list. The list lives at
 * the end of <body>, outside the app React renders, so it never meets hydration or a re-render.
 */
import { navigate } from '@tern/runtime/shared/navigate';
import { loadSearchEngine, type SearchEngine } from './browser-index.js';
import { markedParts } from './marked-parts.js';
import { canonicalQuery, MAX_QUERY_LENGTH } from './query.js';
import type { SearchHit } from './run-search.js';
import { SEARCH_INPUT_SELECTOR } from './search-box.js';

/** How many results the list under a box shows; the search page shows them all. */
const LIST_RESULTS = 8;
/** The search page's own box draws its results itself. */
const PAGE_FORM_SELECTOR = 'form[data-live-search=page]';

const attached = new WeakSet<HTMLInputElement>();
let listCount = 0;

function visible(element: HTMLElement): boolean {
  return element.getClientRects().length > 0;
}

/** `/`, Ctrl+K: the search page's box, else the first search box in view, else the search page. */
export function focusSearch(doc: Document): void {
  // The page's own box first (the search page's), then any other: the header's comes first in the document.
  const boxes = [
    ...doc.querySelectorAll<HTMLInputElement>(`${PAGE_FORM_SELECTOR} input[name=q]`),
    ...doc.querySelectorAll<HTMLInputElement>(SEARCH_INPUT_SELECTOR),
  ];
  const box = boxes.find(visible);
  if (!box) {
    void navigate('/search');
    return;
  }
  box.focus();
  box.select();
}

function markedInto(parent: HTMLElement, text: string, terms: readonly string[]): void {
  for (const part of markedParts(text, terms)) {
    parent.append(part.marked ? Object.assign(document.createElement('mark'), { textContent: part.text }) : part.text);
  }
}

function optionOf(hit: SearchHit, id: string): HTMLAnchorElement {
  const link = Object.assign(document.createElement('a'), { id, href: `/recipes/${hit.id}`, tabIndex: -1 });
  link.setAttribute('role', 'option');
  link.dataset.liveResult = hit.id;
  const title = Object.assign(document.createElement('span'), { className: 'live-search-title' });
  markedInto(title, hit.title, hit.terms);
  const summary = Object.assign(document.createElement('span'), { className: 'live-search-summary' });
  markedInto(summary, hit.summary, hit.terms);
  link.append(title, summary);
  return link;
}

/** The list under one box: drawn, placed, navigated with the keys. */
class ResultList {
  readonly element: HTMLDivElement;
  private options: HTMLAnchorElement[] = [];
  private active = -1;

  constructor(private readonly input: HTMLInputElement) {
    this.element = Object.assign(document.createElement('div'), {
      id: `live-search-${++listCount}`,
      className: 'live-search',
      hidden: true,
    });
    this.element.setAttribute('role', 'listbox');
    this.element.setAttribute('aria-label', 'Matching recipes');
    // A press on a result must not blur the box first (which closes the list).
    this.element.addEventListener('pointerdown', (event) => event.preventDefault());
    this.element.addEventListener('click', (event) => {
      const link = (event.target as Element).closest('a');
      if (link && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
        event.preventDefault();
        this.open(link);
      }
    });
    document.body.append(this.element);
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-expanded', 'false');
    input.setAttribute('aria-controls', this.element.id);
  }

  show(query: string, hits: SearchHit[]): void {
    this.options = hits.slice(0, LIST_RESULTS).map((hit, i) => optionOf(hit, `${this.element.id}-${i}`));
    const status = Object.assign(document.createElement('p'), {
      className: 'live-search-status',
      textContent: hits.length === 0 ? `No recipe matches “${query}”` : `${hits.length} ${hits.length === 1 ? 'recipe' : 'recipes'}`,
    });
    this.element.replaceChildren(status, ...this.options);
    this.setActive(-1);
    this.place();
    this.element.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
  }

  hide(): void {
    this.element.hidden = true;
    this.input.setAttribute('aria-expanded', 'false');
    this.setActive(-1);
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** Moves the choice by `step` (wrapping; -1 is the box itself). */
  move(step: number): void {
    if (this.options.length === 0) return;
    const count = this.options.length + 1;
    this.setActive(((this.active + 1 + step + count) % count) - 1);
  }

  /** Opens the chosen result; false when none is chosen. */
  openActive(): boolean {
    const link = this.options[this.active];
    if (!link) return false;
    this.open(link);
    return true;
  }

  private open(link: HTMLAnchorElement): void {
    this.hide();
    this.input.blur();
    void navigate(link.pathname);
  }

  private setActive(index: number): void {
    this.options[this.active]?.removeAttribute('aria-selected');
    this.active = index;
    const link = this.options[index];
    if (link) {
      link.setAttribute('aria-selected', 'true');
      link.scrollIntoView({ block: 'nearest' });
      this.input.setAttribute('aria-activedescendant', link.id);
    } else this.input.removeAttribute('aria-activedescendant');
  }

  /** Under the box, as wide as it (at least 18 rem, never wider than the screen). */
  private place(): void {
    const box = this.input.getBoundingClientRect();
    const width = Math.min(Math.max(box.width, 288), document.documentElement.clientWidth - 16);
    const left = Math.max(8, Math.min(box.left, document.documentElement.clientWidth - width - 8));
    Object.assign(this.element.style, {
      top: `${box.bottom + window.scrollY + 4}px`,
      left: `${left + window.scrollX}px`,
      width: `${width}px`,
    });
  }
}

/** Gives `input` results as it is typed in; once per box, and not the search page's own box. */
export function attachLiveSearch(input: HTMLInputElement): void {
  if (attached.has(input) || input.closest(PAGE_FORM_SELECTOR)) return;
  attached.add(input);
  const list = new ResultList(input);
  let engine: Promise<SearchEngine> | null = null;
  let latest = '';
  const search = () => {
    engine ??= loadSearchEngine().catch((error: unknown) => {
      engine = null; // the next keystroke tries again; the form still submits meanwhile
      throw error;
    });
    return engine;
  };
  void search().catch(() => undefined);

  const update = () => {
    const query = canonicalQuery(input.value);
    latest = query;
    if (!query || query.length > MAX_QUERY_LENGTH) {
      list.hide();
      return;
    }
    search().then(
      (run) => {
        if (latest === query && document.activeElement === input) list.show(query, run(query));
      },
      () => undefined,
    );
  };
  input.addEventListener('input', update);
  input.addEventListener('focus', update);
  input.addEventListener('blur', () => list.hide());
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && list.isOpen) {
      event.preventDefault();
      list.hide();
    } else if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && list.isOpen) {
      event.preventDefault();
      list.move(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter' && list.isOpen && list.openActive()) {
      event.preventDefault();
    }
  });
  // Typed before this module was in: show its results now.
  if (input.value && document.activeElement === input) update();
}
