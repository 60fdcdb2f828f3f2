/**
 * The header's account corner: the visitor's name and a sign-out button, or a sign-in link.
 * The button is a plain form's, so it signs out before hydration or without JavaScript (the server
 * answers with the same page to go to: server/auth/plain-forms.ts); with JavaScript ./sign-out.ts
 * does it in place.
 */
import { Icon } from '../../../services/renderer/src/app/components/ui/icon.js';
import { isPageHandle } from '../../../services/renderer/src/runtime/shared/page-module.js';
import { Link, useLocation, useMatches, useRevalidator } from 'react-router';
import { LOGOUT_ROUTE } from '../account-routes.js';
import { loginHref } from './safe-redirect.js';
import { useViewer } from './viewer.js';

export function AccountMenu() {
  const viewer = useViewer();
  const location = useLocation();
  const revalidator = useRevalidator();
  const handle = useMatches().at(-1)?.handle;
  const signedInOnly = isPageHandle(handle) && [handle.page.middleware].flat().includes('signed-in');
  const here = `${location.pathname}${location.search}${location.hash}`;

  if (!viewer) {
    return (
      <Link to={loginHref(here)} className="ui-button-soft" data-account="signed-out">
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
            ({ signOutHere }) => signOutHere(signedInOnly, revalidator.revalidate),
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
