/** The default layout (DESIGN): header with the site name, navigation and the colour-mode switch; footer. */
import { ColorModeSwitch } from '../../../services/renderer/src/app/components/ui/color-mode-switch.js';
import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { AccountMenu } from '../components/account-menu.js';
import { SITE_NAME } from '../site-name.js';

const NAVIGATION = [
  { to: '/', label: 'Home' },
  { to: '/about', label: 'About' },
];

export function DefaultLayout({ children }: { children: ReactNode }) {
  return (
    <div data-layout="default" className="flex min-h-screen flex-col">
      <header className="border-b border-default">
        <div className="mx-auto flex max-w-5xl items-center gap-6 px-4 py-3">
          <Link to="/" className="text-lg font-semibold">
            {SITE_NAME}
          </Link>
          <nav aria-label="Main" className="flex flex-1 gap-4 text-sm">
            {NAVIGATION.map((item) => (
              <NavLink key={item.to} to={item.to} end className="hover:underline aria-[current=page]:font-semibold">
                {item.label}
              </NavLink>
            ))}
          </nav>
          <AccountMenu />
          <div data-slot="color-mode-switch">
            <ColorModeSwitch />
          </div>
        </div>
      </header>
      <main className="mx-auto w-full max-w-5xl flex-1 px-4 py-8">{children}</main>
      <footer className="border-t border-default px-4 py-6 text-center text-sm text-muted">{SITE_NAME}: recipes for developers.</footer>
    </div>
  );
}
