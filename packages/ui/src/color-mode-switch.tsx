/**
 * The colour-mode switch for the default layout's header: a menu of Light, Dark and System.
 * The trigger's sun/moon follows the class on <html> through CSS, so it never flips after
 * hydration.
 *
 * The menu (Radix, floating-ui) is a lazy part (./lazy-part.ts), not part of the first load: the
 * server and the first render draw a stand-in button that looks the same. Pointer over it, focus
 * on it or a press starts the load; a press or Enter/Space/ArrowDown made before the menu is in
 * opens it once it is, and a trigger focused when it arrives keeps the focus.
 */
import { useRef, type ComponentProps } from 'react';
import { ColorModeIcons, type ColorModeHandoff } from './color-mode-trigger.js';
import { lazyPart, useLazyPart } from './lazy-part.js';
import { tooltipPart } from './tooltip.js';

// The menu's trigger wears a tooltip: load both, so the trigger is drawn once, not twice.
const menuPart = lazyPart(() => Promise.all([import('./color-mode-menu.js'), tooltipPart.load()]).then(([menu]) => menu));

function StandIn({ className, ...handlers }: Omit<ComponentProps<'button'>, 'className'> & { className?: string | undefined }) {
  return (
    <button
      type="button"
      aria-label="Colour mode"
      aria-haspopup="menu"
      aria-expanded="false"
      data-color-mode-switch=""
      data-state="closed"
      className={`ui-icon-button ${className ?? ''}`}
      {...handlers}
    >
      <ColorModeIcons />
    </button>
  );
}

export function ColorModeSwitch({ className }: { className?: string }) {
  const button = useRef<HTMLButtonElement>(null);
  const handoff = useRef<ColorModeHandoff>({ open: false, focused: false });
  const loaded = useLazyPart(menuPart, () => {
    handoff.current.focused = button.current === document.activeElement;
  });
  if (loaded) return <loaded.default className={className} handoff={handoff.current} />;

  const reach = (open: boolean) => {
    handoff.current.open ||= open;
    void menuPart.load().catch(() => undefined); // a failed load keeps the stand-in; the next reach retries
  };
  return (
    <StandIn
      ref={button}
      className={className}
      // The pointer arriving: load now, so the press finds the menu ready.
      onPointerEnter={() => reach(false)}
      onFocus={() => reach(false)}
      onPointerDown={(event) => reach(event.button === 0)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ' || event.key === 'ArrowDown') {
          event.preventDefault();
          reach(true);
        }
      }}
    />
  );
}
