/**
 * The browser side of payloads: a page route's loader fetches `{route}/_payload.json?{buildId}`
 * instead of running the page's server loader. One fetch per URL at a time, shared by the
 * loaders of one navigation; an error answer becomes the error page.
 */
import { redirect } from 'react-router';
import { BUILD_ID_HEADER } from '@tern/shared/config/constants';
import { reviveError, type ErrorBody } from '@tern/shared/errors/errors';
import { appConfig } from '../shared/app-config.js';
import { onMutation } from '../shared/mutations.js';
import { payloadUrl, type Payload } from '../shared/payload.js';
import { personalState } from '../shared/personal.js';

type BuildIdListener = (buildId: string) => void;
const buildIdListeners = new Set<BuildIdListener>();
const inflight = new Map<string, Promise<Payload>>();
/** Payloads fetched ahead by link preloading, used once by the navigation that follows soon after. */
const preloaded = new Map<string, { payload: Promise<Payload>; expires: number }>();
const PRELOAD_TTL_MS = 10_000;
// A payload fetched before a sign-in or a save would show the page as it was: drop them all.
// The visitor's state too (a sign-in, a save), before the next page shows it.
const personalRefresh = () => import('../shared/personal-refresh.js');
let mutated = false;
onMutation(() => {
  preloaded.clear();
  mutated = true;
  void personalRefresh().then((m) => m.refreshPersonalState(), noop);
});
const noop = () => undefined;
/** Beside a navigation's payload: a refresh under way (a sign-in's), or a new one if someone is signed in. */
const personalBeside = (): Promise<unknown> | undefined =>
  personalState() === undefined && !mutated ? undefined : personalRefresh().then((m) => m.personalRefreshFor(), noop);

/** Called with the build id of every payload answer (build freshness compares it). */
export function onPayloadBuildId(listener: BuildIdListener): () => void {
  buildIdListeners.add(listener);
  return () => buildIdListeners.delete(listener);
}

function isErrorBody(value: unknown): value is ErrorBody {
  const v = value as Partial<ErrorBody> | null;
  return typeof v === 'object' && v !== null && typeof v.statusCode === 'number' && typeof v.statusMessage === 'string';
}

/** A loader's redirect, told by the payload (see server/payload-response.ts). */
function isPayloadRedirect(value: unknown): value is { redirect: { to: string; statusCode: number } } {
  const r = (value as { redirect?: { to?: unknown; statusCode?: unknown } } | null)?.redirect;
  return typeof r?.to === 'string' && typeof r.statusCode === 'number';
}

async function fetchPayload(url: string, signal?: AbortSignal): Promise<Payload> {
  const response = await fetch(url, { headers: { accept: 'application/json' }, signal, credentials: 'same-origin' });
  const buildId = response.headers.get(BUILD_ID_HEADER);
  if (buildId) for (const listener of buildIdListeners) listener(buildId);
  const body: unknown = await response.json().catch(() => null);
  if (response.ok && isPayloadRedirect(body)) throw redirect(body.redirect.to, body.redirect.statusCode);
  if (response.ok && body && typeof body === 'object' && 'data' in body) return body as Payload;
  throw reviveError(
    isErrorBody(body)
      ? body
      : {
          url,
          statusCode: response.status >= 400 ? response.status : 500,
          statusMessage: response.statusText || 'Bad payload',
          message: `Could not load ${url}`,
        },
  );
}

/** The data of one route from the payload of the request's URL. */
export async function loadPayloadData(request: Request, routeId: string): Promise<unknown> {
  const url = new URL(request.url);
  const target = payloadUrl(url.pathname, url.search, appConfig().buildId);
  const joined = inflight.get(target);
  let pending = joined ?? takePreloaded(target);
  // A navigation (its first loader) asks for the visitor's part beside the shared payload.
  const personal = joined ? undefined : personalBeside();
  if (!pending) {
    pending = fetchPayload(target, request.signal);
    inflight.set(target, pending);
    const forget = () => inflight.delete(target);
    pending.then(forget, forget);
  }
  const [payload] = await Promise.all([pending, personal]);
  return payload.data[routeId] ?? null;
}

function takePreloaded(target: string): Promise<Payload> | undefined {
  const entry = preloaded.get(target);
  preloaded.delete(target);
  return entry && entry.expires > Date.now() ? entry.payload : undefined;
}

/** Fetches a page's payload ahead of a navigation (link preloading); resolves when it is here. */
export async function preloadPayload(pathname: string, search: string): Promise<void> {
  const target = payloadUrl(pathname, search, appConfig().buildId);
  const fresh = preloaded.get(target);
  if (fresh && fresh.expires > Date.now()) return;
  const payload = fetchPayload(target);
  const entry = { payload, expires: Date.now() + PRELOAD_TTL_MS };
  // A failed preload is not kept: the navigation asks again rather than reusing a passing error.
  payload.catch(() => preloaded.get(target) === entry && preloaded.delete(target));
  preloaded.set(target, entry);
  await payload;
}
