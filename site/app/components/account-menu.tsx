/**
 * The header's account corner: the visitor's name and a sign-out button, or a sign-in link.
 * Signing out on a page for signed-in visitors only moves to the home page (replacing the entry,
 * so Back does not return to it); elsewhere the page reloads its data as anonymous. The button is
 * a plain form's too, so it signs out before hydration or without JavaScript (the server answers
 * with the same page to go to: server/auth/plain-forms.ts).
 */
import { Icon } from '../../../services/renderer/src/app/components/ui/icon.js';
import { toast } from '../../../services/renderer/src/app/components/ui/toast.js';
import { navigate } from '../../../services/renderer/src/runtime/shared/navigate.js';
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
      <Link to={loginHref(here)} className="ui-button-soft text-sm" data-account="signed-out">
        <Icon name="lucide:log-in" className="size-4" />
        Sign in
      </Link>
    );
  }

  async function leave(): Promise<void> {
    // The accounts client and ofetch load with the first sign-out, not with every page.
    const { signOut } = await import('./accounts-client.js');
    const result = await signOut();
    if (!result.ok) {
      toast.add({ title: 'Could not sign out', description: result.error.message, color: 'error', icon: 'lucide:circle-x' });
      return;
    }
    toast.add({ title: 'Signed out', color: 'success', icon: 'lucide:circle-check' });
    if (signedInOnly) await navigate('/', { replace: true });
    else await revalidator.revalidate();
  }

  return (
    <div className="flex items-center gap-2 text-sm" data-account="signed-in">
      <Icon name="lucide:circle-user" className="size-5 text-muted" />
      <span title={viewer.email}>{viewer.name}</span>
      <form
        method="post"
        action={LOGOUT_ROUTE}
        onSubmit={(event) => {
          event.preventDefault();
          void leave();
        }}
      >
        <input type="hidden" name="redirect" value={signedInOnly ? '/' : here} />
        <button type="submit" className="ui-button-soft text-sm">
          Sign out
        </button>
      </form>
    </div>
  );
}
