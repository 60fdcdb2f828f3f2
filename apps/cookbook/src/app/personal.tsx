/**
 * The cookbook's personal parts (docs/decisions/personal-holes.md): the account corner of the
 * header, the Saved link of its navigation and each recipe's save button. Everything else on the
 * category, recipe, tag and search pages is the same for every visitor, so signed-in visitors get
 * those pages from the shared cache with these parts filled in for them by the gateway.
 * The state comes from the session alone (server/server.ts, `personal`).
 */
import { definePersonal } from '@tern/runtime/shared/personal';
import { NavLink } from 'react-router';
import { AccountCorner } from './components/account-menu.js';
import { SaveButton } from './components/save-button.js';
import type { PersonalState } from './personal-state.js';


const ANONYMOUS: PersonalState = { viewer: null, saved: [] };

export const personal = definePersonal<
  PersonalState,
  { account: { signedInOnly: boolean }; 'saved-link': Record<string, never>; save: { recipeId: string; recipeTitle: string } }
>({
  anonymous: ANONYMOUS,
  parts: {
    account: (state, { signedInOnly }) => <AccountCorner viewer={state.viewer} signedInOnly={signedInOnly} />,
    'saved-link': (state) =>
      state.viewer && (
        <NavLink to="/saved" end>
          Saved
        </NavLink>
      ),
    save: (state, { recipeId, recipeTitle }) => {
      const saved = state.saved.includes(recipeId);
      const signedIn = state.viewer !== null;
      return <SaveButton key={`${signedIn}:${saved}`} recipeId={recipeId} recipeTitle={recipeTitle} saved={saved} signedIn={signedIn} />;
    },
  },
});

export const { Part, usePersonal } = personal;
