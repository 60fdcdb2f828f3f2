/**
 * `<Icon name="collection:name">`: inline SVG. Icons of the build's bundle are drawn on the
 * server and at hydration alike; others are loaded on the client (batched per collection) and
 * keep an empty box of the same size until they arrive, or for good if they are missing.
 */
import { useEffect, useId, useSyncExternalStore, type CSSProperties } from 'react';
import bundle from 'virtual:icon-bundle';
import { iconLoader } from '../../../runtime/client/icons-loader.js';
import { scopeSvgIds } from '../../../runtime/shared/icons.js';

export interface IconProps {
  name: string;
  className?: string;
  style?: CSSProperties;
  /** An accessible name; without it the icon is decorative (aria-hidden). */
  label?: string;
}

const notLoaded = (): undefined => undefined;

export function Icon({ name, className, style, label }: IconProps) {
  const bundled = bundle[name];
  const loaded = useSyncExternalStore(iconLoader.subscribe, () => (bundled ? undefined : iconLoader.peek(name)), notLoaded);
  const scope = useId();
  useEffect(() => {
    if (!bundled) void iconLoader.load(name);
  }, [name, bundled]);

  const icon = bundled ?? loaded ?? null;
  const a11y = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true };
  const classes = `ui-icon inline-block shrink-0 ${className ?? ''}`.trim();
  if (!icon) {
    return <span {...a11y} data-icon={name} data-icon-state={loaded === null ? 'missing' : 'loading'} className={classes} style={style} />;
  }
  return (
    <svg
      {...a11y}
      xmlns="http://www.w3.org/2000/svg"
      data-icon={name}
      viewBox={icon.viewBox}
      width={icon.aspect === 1 ? '1em' : `${icon.aspect}em`}
      height="1em"
      className={classes}
      style={style}
      dangerouslySetInnerHTML={{ __html: scopeSvgIds(icon.body, scope) }}
    />
  );
}
