/**
 * Save or unsave a recipe, confirmed with a toast. Anonymous visitors are offered the login
 * (and come back to the recipe afterwards).
 */
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { navigate } from '../../../runtime/shared/navigate.js';
import { Icon } from '../ui/icon.js';
import { toast } from '../ui/toast.js';
import { loginHref } from './safe-redirect.js';

export interface SaveButtonProps {
  recipeId: string;
  recipeTitle: string;
  saved: boolean;
  signedIn: boolean;
}

export function SaveButton({ recipeId, recipeTitle, saved: initiallySaved, signedIn }: SaveButtonProps) {
  const [saved, setSaved] = useState(initiallySaved);
  const [busy, setBusy] = useState(false);
  const location = useLocation();
  const login = loginHref(`${location.pathname}#${recipeId}`);

  if (!signedIn) {
    return (
      <Link to={login} className="ui-button-soft text-sm" data-save="anonymous">
        <Icon name="lucide:bookmark" className="size-4" />
        Sign in to save<span className="sr-only"> {recipeTitle}</span>
      </Link>
    );
  }

  async function toggle(): Promise<void> {
    setBusy(true);
    // The API client (ofetch) loads on first use, not with every page.
    const { saveRecipe, unsaveRecipe } = await import('./accounts-client.js');
    const result = saved ? await unsaveRecipe(recipeId) : await saveRecipe(recipeId);
    setBusy(false);
    if (result.ok) {
      setSaved(!saved);
      toast.add({
        title: saved ? `Removed "${recipeTitle}" from your saved recipes` : `Saved "${recipeTitle}"`,
        color: 'success',
        icon: 'lucide:bookmark-check',
      });
    } else if (result.status === 401) {
      toast.add({
        title: 'Your session has ended',
        description: 'Sign in again to save recipes.',
        color: 'warning',
        actions: [{ label: 'Sign in', onClick: () => void navigate(login) }],
      });
    } else {
      toast.add({
        title: 'Could not update your saved recipes',
        description: result.error.message,
        color: 'error',
        icon: 'lucide:circle-x',
      });
    }
  }

  return (
    <button
      type="button"
      className="ui-button-soft text-sm"
      aria-busy={busy || undefined}
      disabled={busy}
      data-save={saved ? 'saved' : 'not-saved'}
      onClick={() => void toggle()}
    >
      <Icon name={saved ? 'lucide:bookmark-check' : 'lucide:bookmark'} className="size-4" />
      {saved ? 'Remove from saved' : 'Save'}
      <span className="sr-only"> {recipeTitle}</span>
    </button>
  );
}
