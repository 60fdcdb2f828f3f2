/** `prerender: true`: rendered at build time (and the internal pages it links to), served as files. */
import { booleanKind, type RouteRuleKind } from '../kind.js';
import { RouteRuleError } from '../route-rule-error.js';

const flag = booleanKind('prerender');

export const prerenderKind: RouteRuleKind<
  boolean,
  {
    /** Render at build time (and the internal pages it links to), served as files. */
    prerender?: boolean;
  }
> = {
  ...flag,
  normalize(pattern, rule) {
    const value = flag.normalize(pattern, rule);
    if (value && (pattern.includes('*') || pattern.includes(':'))) {
      throw new RouteRuleError(pattern, 'prerender: true needs a plain path (the crawler finds the pages it links to)');
    }
    return value;
  },
};
