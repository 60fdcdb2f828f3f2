/**
 * The cookbook's personal parts (docs/decisions/personal-holes.md): the account corner of the
 * header and the Saved link of its navigation here, each recipe's save button in
 * components/save-part.tsx (only the pages with recipes load it). Everything else on the category,
 * recipe, tag, search and About pages is the same for every visitor, so signed-in visitors get those
 * pages from the shared cache with these parts filled in for them by the gateway. The state comes
 * from the session alone (server/server.ts, `personal`).
 */
import { definePersonal } from '@tern/runtime/shared/personal';
import { ServerNavLink } from '@tern/ui/link';
import { NavLink } from 'react-router';
import { AccountCorner } from './components/account-menu.js';
import type { PersonalState } from './personal-state.js';

export const personal = definePersonal<PersonalState>({ anonymous: { viewer: null, saved: [] } });

export const AccountPart = personal.part('account', (state, { signedInOnly }: { signedInOnly: boolean }) => (
  <AccountCorner viewer={state.viewer} signedInOnly={signedInOnly} />
));

export const SavedLinkPart = personal.part(
  'saved-link',
  (state) =>
    state.viewer &&
    // As the header's other navigation links (components/site-controls.tsx).
    (import.meta.env.SSR ? (
      <ServerNavLink to="/saved" end>
        Saved
      </ServerNavLink>
    ) : (
      <NavLink to="/saved" end>
        Saved
      </NavLink>
    )),
);
