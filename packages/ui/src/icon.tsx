/**
 * `<Icon name="collection:name">`: inline SVG. Icons of the build's bundle are drawn on the
 * server and at hydration alike; others are loaded on the client (batched per collection) and
 * keep an empty box of the same size until they arrive, or for good if they are missing.
 * The browser's bundle leaves out the content's icons (build/icon-bundle-plugin.ts): the ones the
 * server drew are read back from its HTML before hydration (`adoptServerIcons`).
 */
import { useEffect, useId, useSyncExternalStore, type CSSProperties, type SVGProps } from 'react';
import bundle from 'virtual:icon-bundle';
import { scopeSvgIds, type IconSvg } from '@tern/runtime/shared/icons';
import { lazyPart } from './lazy-part.js';

/** The loader of icons the bundle lacks: loaded with the first such icon, not with every page. */
const loaderPart = lazyPart(() => import('@tern/runtime/browser/icons-loader'));
const loader = () => loaderPart.current()?.iconLoader;

function subscribeToLoader(listener: () => void): () => void {
  let unsubscribe: (() => void) | undefined;
  let live = true;
  void loaderPart.load().then(({ iconLoader }) => {
    if (!live) return;
    unsubscribe = iconLoader.subscribe(listener);
    listener(); // it may have settled icons already
  }, noop);
  return () => {
    live = false;
    unsubscribe?.();
  };
}
const noop = () => undefined;
const noSubscription = () => noop;

/** Icons the server drew that the browser's bundle does not have, as read from the page, and the late bundle's. */
const adopted = new Map<string, IconSvg>();

/** Adds a bundle loaded with the part that draws it (`virtual:icon-bundle/late`). */
export function addIcons(icons: Readonly<Record<string, IconSvg>>): void {
  for (const [name, icon] of Object.entries(icons)) adopted.set(name, icon);
}

/** Marks an SVG whose ids were scoped, so the scope can be taken off again when it is adopted. */
const SCOPE_ATTRIBUTE = 'data-icon-scope';

/**
 * Reads the icons of the server's HTML that the bundle lacks, so hydration draws them again
 * without a request or a mismatch. Call before hydrating.
 */
export function adoptServerIcons(root: ParentNode = document): void {
  for (const svg of root.querySelectorAll<SVGSVGElement>('svg[data-icon]')) {
    const name = svg.dataset.icon ?? '';
    if (bundle[name] || adopted.has(name)) continue;
    const scope = svg.getAttribute(SCOPE_ATTRIBUTE);
    let body = svg.innerHTML;
    if (scope) body = body.replaceAll(`id="${scope}-`, 'id="').replaceAll(`#${scope}-`, '#');
    const width = svg.getAttribute('width') ?? '1em';
    adopted.set(name, { body, viewBox: svg.getAttribute('viewBox') ?? '0 0 16 16', aspect: width === '1em' ? 1 : parseFloat(width) });
  }
}

const safeScope = (scope: string) => scope.replace(/[^a-zA-Z0-9_-]/g, '');

export interface IconProps {
  name: string;
  className?: string;
  style?: CSSProperties;
  /** An accessible name; without it the icon is decorative (aria-hidden). */
  label?: string;
}

const notLoaded = (): undefined => undefined;

export function Icon({ name, className, style, label }: IconProps) {
  const bundled = bundle[name] ?? adopted.get(name);
  const loaded = useSyncExternalStore(
    bundled ? noSubscription : subscribeToLoader,
    () => (bundled ? undefined : loader()?.peek(name)),
    notLoaded,
  );
  const scope = useId();
  useEffect(() => {
    // A loader chunk that cannot load leaves the empty box, as a missing icon does.
    if (!bundled) void loaderPart.load().then(({ iconLoader }) => iconLoader.load(name), noop);
  }, [name, bundled]);

  const icon = bundled ?? loaded ?? null;
  const classes = `ui-icon inline-block shrink-0 ${className ?? ''}`.trim();
  if (!icon) {
    const a11y = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true };
    return <span {...a11y} data-icon={name} data-icon-state={loaded === null ? 'missing' : 'loading'} className={classes} style={style} />;
  }
  const props = (import.meta.env.SSR && !style && drawnOnServer(name, icon, classes, label)) || svgProps(name, icon, classes, label, style, scope);
  return <svg {...props} />;
}

type SvgProps = SVGProps<SVGSVGElement> & { 'data-icon': string; [SCOPE_ATTRIBUTE]?: string };

/** The props of the <svg> of an icon; markup the server and hydration produce alike. */
function svgProps(name: string, icon: IconSvg, classes: string, label: string | undefined, style: CSSProperties | undefined, scope: string): SvgProps {
  return {
    ...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true }),
    xmlns: 'http://www.w3.org/2000/svg',
    'data-icon': name,
    viewBox: icon.viewBox,
    width: icon.aspect === 1 ? '1em' : `${icon.aspect}em`,
    height: '1em',
    className: classes,
    style,
    ...(/\sid="/.test(icon.body) ? { [SCOPE_ATTRIBUTE]: safeScope(scope) } : {}),
    dangerouslySetInnerHTML: { __html: scopeSvgIds(icon.body, scope) },
  };
}

/**
 * Server only (the browser's build leaves it out): every render drew the same icons with the same
 * props, and building them (the id tests over the body, the strings, the spread objects) was ~3% of
 * a page's CPU. They are made once per icon, class and label; React only reads props. An icon whose
 * body has ids is scoped per instance (its `useId`) and is not kept. Memory: one small object per
 * icon and prop set, at most MAX_DRAWN of them (then the map starts again).
 */
const drawn = new Map<string, SvgProps | null>();
const MAX_DRAWN = 512;

function drawnOnServer(name: string, icon: IconSvg, classes: string, label: string | undefined): SvgProps | null {
  // The a11y props depend on whether there is a label, so '' and undefined draw alike.
  const key = `${name}\0${classes}\0${label || ''}`;
  let props = drawn.get(key);
  if (props === undefined) {
    props = /\sid="/.test(icon.body) ? null : Object.freeze(svgProps(name, icon, classes, label, undefined, ''));
    if (drawn.size >= MAX_DRAWN) drawn.clear();
    drawn.set(key, props);
  }
  return props;
}
