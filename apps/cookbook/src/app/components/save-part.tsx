/** A recipe's save button as a personal part (../personal.tsx): saved or not, signed in or not, per visitor. */
import { personal } from '../personal.js';
import { SaveButton } from './save-button.js';

export const SavePart = personal.part('save', (state, { recipeId, recipeTitle }: { recipeId: string; recipeTitle: string }) => {
  const saved = state.saved.includes(recipeId);
  const signedIn = state.viewer !== null;
  return <SaveButton key={`${signedIn}:${saved}`} recipeId={recipeId} recipeTitle={recipeTitle} saved={saved} signedIn={signedIn} />;
});
