/**
 * Save or unsave a recipe, confirmed with a toast. Anonymous visitors are offered the login
 * (and come back to the recipe afterwards).
 */
import { Icon } from '@tern/ui/icon';
import { toast } from '@tern/ui/toast';
import { Tooltip } from '@tern/ui/tooltip';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { Link } from '@tern/ui/link';
import { savedRecipeRoute } from '../account-routes.js';
import { loginHref, serverLoginHref } from './safe-redirect.js';

/** The save itself (the accounts client, its answers' toasts) loads on the way to a press (hover, focus), not with the page. */
const saveAction = () => import('./save-recipe.js');
const warmAccounts = () => void saveAction().catch(() => undefined);

function connectionFailed(): void {
  toast.add({
    title: 'Could not update your saved recipes',
    description: 'Check your connection.',
    color: 'error',
    icon: 'lucide:circle-x',
  });
}

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
  const back = `${location.pathname}${location.search}#${recipeId}`;
  const login = import.meta.env.SSR ? serverLoginHref(back) : loginHref(back);

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
    const action = await saveAction().catch(() => null);
    if (!action) connectionFailed();
    const nowSaved = action ? await action.toggleSaved({ recipeId, recipeTitle, saved, login }) : saved;
    setBusy(false);
    setSaved(nowSaved);
  }

  // Icon-only: the words are for screen readers (with the recipe's title) and the tooltip. A plain
  // form too, for a press before hydration or without JavaScript (server/saved/saved-routes.ts).
  const action = saved ? 'Remove from saved' : 'Save';
  return (
    <form
      method="post"
      action={savedRecipeRoute(recipeId)}
      onSubmit={(event) => {
        event.preventDefault();
        void toggle();
      }}
    >
      <input type="hidden" name="saved" value={String(!saved)} />
      <input type="hidden" name="redirect" value={back} />
      <Tooltip text={saved ? 'Remove from saved' : 'Save recipe'}>
        <button
          type="submit"
          className="ui-icon-button"
          aria-busy={busy || undefined}
          disabled={busy}
          data-save={saved ? 'saved' : 'not-saved'}
          onPointerEnter={warmAccounts}
          onFocus={warmAccounts}
        >
          <Icon name={saved ? 'lucide:bookmark-check' : 'lucide:bookmark'} className="size-5" />
          <span className="sr-only">
            {action} {recipeTitle}
          </span>
        </button>
      </Tooltip>
    </form>
  );
}
