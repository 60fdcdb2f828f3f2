/** `robots: false`: the answer says `x-robots-tag: noindex`, errors and cached hits included. */
import { booleanKind, type RouteRuleKind } from '../kind.js';

const NOINDEX = [['x-robots-tag', 'noindex']] as const;

export const robotsKind: RouteRuleKind<
  boolean,
  {
    /** `false` adds `x-robots-tag: noindex`. */
    robots?: boolean;
  }
> = {
  ...booleanKind('robots'),
  answerHeaders: (value) => (value === false ? NOINDEX : []),
};
