/**
 * The production bootstrap: an inline script that fetches the page's modules and hydrates once
 * the server HTML has been painted, instead of module preloads in the head and a
 * `<script type="module" async>` that compete with the stylesheet and the hero image for the
 * network and may run React's hydration (tens of milliseconds of CPU, four times that on a
 * mid-range phone) before the browser's first frame. The visitor sees the page first; links and
 * forms work as plain HTML meanwhile, and the page is interactive a few frames later.
 *
 * That order is also what Lighthouse's simulation needs to see: it counts every module whose
 * download finished before the largest paint as blocking that paint (a module's evaluation
 * carries no URL in the trace, so it cannot tell otherwise), and replays them over slow 4G.
 *
 * When: after the first contentful paint, and after the page's hero image (the `<Img preload>`,
 * marked `elementtiming`) is painted where Element Timing can tell (Chromium). Never later than
 * HYDRATE_AFTER_PAINT_MAX_WAIT_MS after the script ran, and at once on the visitor's first key or
 * pointer press, in a hidden tab (it paints nothing) or where the browser reports no paints.
 * The modules are listed in the PAGE_MODULES_ELEMENT_ID block, the entry first; all of them are
 * preloaded together so their imports do not make a waterfall.
 *
 * If the entry or a module it imports does not load (a flaky network, a build's files gone), no
 * code of the app is there to recover: the script reloads the page itself, once per path within
 * the guard the browser runtime uses for page chunks (runtime/shared/reload-guard.ts). A second
 * failure, or a crawler, keeps the server's page, which works as plain HTML.
 */
import { APP_CONFIG_ELEMENT_ID, PAGE_MODULES_ELEMENT_ID } from '@tern/runtime/shared/document-ids';
import { HERO_ELEMENT_TIMING } from '@tern/runtime/shared/images';
import { toScriptSafeJson } from '@tern/runtime/shared/payload';
import { CHUNK_LOAD_ERROR, RELOAD_GUARD_MS, RELOAD_MARKER_KEY } from '@tern/runtime/shared/reload-guard';

/** The longest the entry waits for a paint that is late or never comes (a hero scrolled away). */
export const HYDRATE_AFTER_PAINT_MAX_WAIT_MS = 2000;

// Kept small and plain: it is inline in every page. The preload links carry the script's own
// nonce (`'strict-dynamic'` pages); cached pages have none and load as `'self'`.
const SCRIPT = `((waitForPaint, id, maxWait, hero, configId, loadError, key, guardMs) => {
  const nonce = document.currentScript.nonce;
  const json = (text) => {
    try {
      return JSON.parse(text);
    } catch (_) {
      return null;
    }
  };
  const reloadOnce = (error) => {
    if (!new RegExp(loadError, 'i').test(error && error.message)) throw error;
    if ((json(document.getElementById(configId).textContent) || {}).crawler) return;
    const path = location.pathname + location.search + location.hash;
    const now = Date.now();
    try {
      const marker = json(sessionStorage.getItem(key)) || {};
      if (marker.path === path && marker.expires > now) return;
      sessionStorage.setItem(key, JSON.stringify({ path, expires: now + guardMs }));
    } catch (_) {
      return;
    }
    location.reload();
  };
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const type of ['keydown', 'pointerdown']) removeEventListener(type, start, true);
    const modules = JSON.parse(document.getElementById(id).textContent);
    for (const href of modules.preload) {
      const link = document.createElement('link');
      Object.assign(link, { rel: 'modulepreload', href, crossOrigin: 'anonymous', nonce });
      document.head.append(link);
    }
    import(modules.entry).catch(reloadOnce);
  };
  const types = (self.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [];
  if (!waitForPaint || document.visibilityState === 'hidden' || !types.includes('paint')) return start();
  for (const type of ['keydown', 'pointerdown']) addEventListener(type, start, true);
  setTimeout(start, maxWait);
  const observe = (type, onEntries) => {
    const observer = new PerformanceObserver((list) => onEntries(list.getEntries(), observer));
    observer.observe({ type, buffered: true });
  };
  observe('paint', (entries, observer) => {
    if (!entries.some((entry) => entry.name === 'first-contentful-paint')) return;
    observer.disconnect();
    const image = document.querySelector('img[elementtiming="' + hero + '"]');
    if (!image || !types.includes('element') || (image.complete && !image.naturalWidth)) return start();
    image.addEventListener('error', start);
    observe('element', (painted) => {
      if (painted.some((entry) => entry.element === image)) start();
    });
  });
})`;

const bootstrap = (waitForPaint: boolean): string =>
  `${SCRIPT.replace(/\n\s*/g, '')}(${[
    waitForPaint,
    PAGE_MODULES_ELEMENT_ID,
    HYDRATE_AFTER_PAINT_MAX_WAIT_MS,
    HERO_ELEMENT_TIMING,
    APP_CONFIG_ELEMENT_ID,
    CHUNK_LOAD_ERROR.source,
    RELOAD_MARKER_KEY,
    RELOAD_GUARD_MS,
  ]
    .map((value) => toScriptSafeJson(value))
    .join(', ')});`;

/** The inline script (React's `bootstrapScriptContent`, which adds the nonce), on one line. */
export const HYDRATE_AFTER_PAINT_SCRIPT = bootstrap(true);

/**
 * The same for the `ssr: false` shell, which has nothing to paint first: the modules load at once.
 * The reload on a failed entry matters most there, since the shell alone is an empty page.
 */
export const LOAD_ENTRY_SCRIPT = bootstrap(false);
