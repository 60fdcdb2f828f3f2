/** A bad rule in the site config; the message names the rule. Its own file: route-rules.ts and the kinds (kinds/) throw it. */
export class RouteRuleError extends Error {
  constructor(
    readonly pattern: string,
    problem: string,
  ) {
    super(`route rule ${JSON.stringify(pattern)}: ${problem}`);
    this.name = 'RouteRuleError';
  }
}
