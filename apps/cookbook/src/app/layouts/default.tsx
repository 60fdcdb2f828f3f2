/**
 * The default layout (DESIGN): a skip link, the header (site name, and the controls: in a bar on
 * wide screens, in a menu on narrow ones), the page in <main>, the footer. Looks: styles/header.css
 * (class names there rather than utilities here: this module is first-load JavaScript).
 */
import type { ReactNode } from 'react';
import { Link } from '@tern/ui/link';
import { SiteControls } from '../components/site-controls.js';
import { SiteMenu } from '../components/site-menu.js';
import { SITE_NAME } from '../site-name.js';

/** The skip link's target. */
export const MAIN_ID = 'main-content';

export function DefaultLayout({ children }: { children: ReactNode }) {
  return (
    <div data-layout="default" className="site-layout">
      <a href={`#${MAIN_ID}`} className="skip-link">
        Skip to content
      </a>
      <header className="site-header">
        <Link to="/" className="text-lg font-semibold">
          {SITE_NAME}
        </Link>
        <div className="site-bar">
          <SiteControls />
        </div>
        <SiteMenu>
          <SiteControls />
        </SiteMenu>
      </header>
      <main id={MAIN_ID}>
        {children}
      </main>
      <footer>{SITE_NAME}: recipes for developers.</footer>
    </div>
  );
}
