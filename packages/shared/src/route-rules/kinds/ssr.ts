/** `ssr: false`: the client-rendered shell, no server rendering (Nuxt's per-route SPA mode). Read by the renderer. */
import { booleanKind, type RouteRuleKind } from '../kind.js';

export const ssrKind: RouteRuleKind<
  boolean,
  {
    /** `false`: serve the client-rendered shell (Nuxt's per-route SPA mode). */
    ssr?: boolean;
  }
> = booleanKind('ssr');
