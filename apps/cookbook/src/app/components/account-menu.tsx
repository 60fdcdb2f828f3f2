/**
 * The header's account corner: the visitor's name and a sign-out button, or a sign-in link. A
 * personal part (../personal.tsx): drawn in the page and, for the gateway, alone in a router that
 * knows only the location, so it reads nothing else of the router and is handed the rest.
 * The button is a plain form's, so it signs out before hydration or without JavaScript (the server
 * answers with the same page to go to: server/auth/plain-forms.ts); with JavaScript ./sign-out.ts
 * does it in place.
 */
import { Icon } from '@tern/ui/icon';
import { useLocation } from 'react-router';
import { Link } from '@tern/ui/link';
import { LOGOUT_ROUTE } from '../account-routes.js';
import { loginHref, serverLoginHref } from './safe-redirect.js';
import type { PageViewer } from './viewer.js';

export interface AccountCornerProps {
  viewer: PageViewer | null;
  /** The page is for signed-in visitors only: signing out leaves it for the home page. */
  signedInOnly: boolean;
}

export function AccountCorner({ viewer, signedInOnly }: AccountCornerProps) {
  const location = useLocation();
  const here = `${location.pathname}${location.search}${location.hash}`;

  if (!viewer) {
    return (
      <Link to={import.meta.env.SSR ? serverLoginHref(here) : loginHref(here)} className="ui-button-soft" data-account="signed-out">
        <Icon name="lucide:log-in" className="size-4" />
        Sign in
      </Link>
    );
  }

  return (
    <div className="site-account" data-account="signed-in">
      <Icon name="lucide:circle-user" className="size-5 shrink-0 text-muted" />
      <span title={viewer.email}>{viewer.name}</span>
      <form
        method="post"
        action={LOGOUT_ROUTE}
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          // A module that cannot load (offline, a build gone) leaves the plain form to do it.
          import('./sign-out.js').then(
            ({ signOutHere }) => signOutHere(signedInOnly, here),
            () => form.submit(),
          );
        }}
      >
        <input type="hidden" name="redirect" value={signedInOnly ? '/' : here} />
        <button type="submit" className="ui-button-soft">
          Sign out
        </button>
      </form>
    </div>
  );
}
