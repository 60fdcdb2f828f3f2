/**
 * Signing out from the header with JavaScript, loaded with the first press of Sign out (not with
 * every page): a page for signed-in visitors only is left for the home page (replacing the entry,
 * so Back does not return to it); any other page reloads its data as anonymous (a navigation to
 * itself; the personal parts follow the visitor's state, refreshed after the sign-out).
 */
import { toast } from '@tern/ui/toast';
import { navigate } from '@tern/runtime/shared/navigate';
import { signOut } from './accounts-client.js';

export async function signOutHere(signedInOnly: boolean, here: string): Promise<void> {
  const result = await signOut();
  if (!result.ok) {
    toast.add({ title: 'Could not sign out', description: result.error.message, color: 'error', icon: 'lucide:circle-x' });
    return;
  }
  toast.add({ title: 'Signed out', color: 'success', icon: 'lucide:circle-check' });
  if (signedInOnly) await navigate('/', { replace: true });
  else await navigate(here, { replace: true });
}
