/**
 * Saving or unsaving a recipe and the toast that says how it went: loaded with the accounts client
 * when a save button is about to be pressed (save-button.tsx), never with the page.
 */
import { toast } from '@tern/ui/toast';
import { navigate } from '@tern/runtime/shared/navigate';
import { saveRecipe, unsaveRecipe } from './accounts-client.js';

export interface SaveToggle {
  recipeId: string;
  recipeTitle: string;
  /** Whether it is saved now. */
  saved: boolean;
  /** The login page that comes back here, for an ended session. */
  login: string;
}

/** Saves or unsaves; resolves with whether the recipe is saved afterwards. */
export async function toggleSaved({ recipeId, recipeTitle, saved, login }: SaveToggle): Promise<boolean> {
  const result = saved ? await unsaveRecipe(recipeId) : await saveRecipe(recipeId);
  if (result.ok) {
    toast.add({
      title: saved ? `Removed "${recipeTitle}" from your saved recipes` : `Saved "${recipeTitle}"`,
      color: 'success',
      icon: 'lucide:bookmark-check',
    });
    return !saved;
  }
  if (result.status === 401) {
    toast.add({
      title: 'Your session has ended',
      description: 'Sign in again to save recipes.',
      color: 'warning',
      actions: [{ label: 'Sign in', onClick: () => void navigate(login) }],
    });
  } else {
    toast.add({ title: 'Could not update your saved recipes', description: result.error.message, color: 'error', icon: 'lucide:circle-x' });
  }
  return saved;
}
