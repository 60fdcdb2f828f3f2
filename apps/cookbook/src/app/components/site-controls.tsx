/**
 * The header's controls: the navigation (with the saved recipes when signed in), the search form,
 * the account and the colour mode. The layout draws them twice, in the bar of a wide screen and in
 * the menu of a narrow one; CSS shows one (styles/header.css), so the HTML works without JavaScript.
 */
import { ColorModeSwitch } from '@tern/ui/color-mode-switch';
import { isPageHandle } from '@tern/runtime/shared/page-module';
import { ServerNavLink } from '@tern/ui/link';
import { NavLink, useMatches } from 'react-router';
import { AccountPart, SavedLinkPart } from '../personal.js';
import { SearchForm } from './search-form.js';

const NAVIGATION = [
  ['/', 'Home'],
  ['/about', 'About'],
];

/** The Saved link and the account corner are personal parts (../personal.tsx). */
export function SiteControls() {
  const handle = useMatches().at(-1)?.handle;
  const signedInOnly = isPageHandle(handle) && [handle.page.middleware].flat().includes('signed-in');
  return (
    <>
      <nav aria-label="Main" className="site-nav">
        {NAVIGATION.map(([to, label]) =>
          // The server's NavLink draws the same link for less (the header has four on every page);
          // named here under `import.meta.env.SSR` so the browser's first load stays React Router's alone.
          import.meta.env.SSR ? (
            <ServerNavLink key={to} to={to!} end>
              {label}
            </ServerNavLink>
          ) : (
            <NavLink key={to} to={to!} end>
              {label}
            </NavLink>
          ),
        )}
        <SavedLinkPart />
      </nav>
      <SearchForm />
      <AccountPart signedInOnly={signedInOnly} />
      <div className="site-color-mode">
        <span aria-hidden="true">Colour mode</span>
        <ColorModeSwitch />
      </div>
    </>
  );
}
