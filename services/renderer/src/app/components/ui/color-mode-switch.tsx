/**
 * The colour-mode switch for the default layout's header: a menu of Light, Dark and System.
 * The trigger's sun/moon follows the class on <html> through CSS, so it never flips after
 * hydration.
 *
 * The menu (Radix, floating-ui) is an async component (runtime/shared/async-component.tsx), not part of
 * the first load: the server and the first render draw a stand-in button that looks the same.
 * Pointer over it, focus on it or a press starts the load; a press or Enter/Space/ArrowDown made
 * before the menu is in opens it once it is, and a focused trigger keeps its focus.
 */
import { useRef, useState, type ComponentProps } from 'react';
import { asyncComponent } from '../../../runtime/shared/async-component.js';
import { ColorModeIcons, type ColorModeHandoff } from './color-mode-trigger.js';
import { tooltipPart } from './tooltip.js';

// The menu's trigger wears a tooltip: load both, so the trigger is drawn once, not twice.
const loadMenu = () => Promise.all([import('./color-mode-menu.js'), tooltipPart.load()]).then(([menu]) => menu);
const preload = () => void loadMenu().catch(() => undefined);

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

// Shown in the moment between the stand-in and the loaded menu: the same button, inert.
const ColorModeMenu = asyncComponent(loadMenu, { loading: <StandIn />, delay: 0 });

export function ColorModeSwitch({ className }: { className?: string }) {
  const [active, setActive] = useState(false);
  const handoff = useRef<ColorModeHandoff>({ open: false, focused: false });
  if (active) return <ColorModeMenu className={className} handoff={handoff.current} />;

  const activate = (open: boolean, focused: boolean) => {
    handoff.current = { open: handoff.current.open || open, focused: handoff.current.focused || focused };
    preload();
    setActive(true);
  };
  return (
    <StandIn
      className={className}
      // The pointer arriving: load now, so the press finds the menu ready.
      onPointerEnter={preload}
      onFocus={() => activate(false, true)}
      onPointerDown={(event) => {
        if (event.button === 0) activate(true, false);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ' || event.key === 'ArrowDown') {
          event.preventDefault();
          activate(true, true);
        }
      }}
    />
  );
}
