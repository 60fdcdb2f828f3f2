/**
 * The shape of route rules once the build has normalised them. Shared by the build, the
 * gateway, the build store and the browser, so it holds types only.
 */
export interface RedirectRule {
  to: string;
  statusCode: number;
}

export interface RouteRules {
  redirect?: RedirectRule;
  headers?: Record<string, string>;
  /** `false` adds `x-robots-tag: noindex`. */
  robots?: boolean;
}

/** Pattern -> normalised rules, as the build writes them into the build meta. */
export type CompiledRouteRules = Record<string, RouteRules>;
