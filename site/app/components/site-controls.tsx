/**
 * The header's controls: the navigation (with the saved recipes when signed in), the search form,
 * the account and the colour mode. The layout draws them twice, in the bar of a wide screen and in
 * the menu of a narrow one; CSS shows one (styles/header.css), so the HTML works without JavaScript.
 */
import { ColorModeSwitch } from '../../../services/renderer/src/app/components/ui/color-mode-switch.js';
import { NavLink } from 'react-router';
import { AccountMenu } from './account-menu.js';
import { SearchForm } from './search-form.js';
import { useViewer } from './viewer.js';

const NAVIGATION = [
  ['/', 'Home'],
  ['/about', 'About'],
];
const SAVED = ['/saved', 'Saved'];

export function SiteControls() {
  const links = useViewer() ? [...NAVIGATION, SAVED] : NAVIGATION;
  return (
    <>
      <nav aria-label="Main" className="site-nav">
        {links.map(([to, label]) => (
          <NavLink key={to} to={to!} end>
            {label}
          </NavLink>
        ))}
      </nav>
      <SearchForm />
      <AccountMenu />
      <div className="site-color-mode">
        <span aria-hidden="true">Colour mode</span>
        <ColorModeSwitch />
      </div>
    </>
  );
}
