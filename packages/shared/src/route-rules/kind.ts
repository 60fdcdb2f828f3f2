/**
 * The shape of one route-rule kind (redirect, headers, cache...): everything the platform does with
 * it, declared in the kind's own file and registered once in route-rule-kinds.ts. Browser-safe.
 */
import { RouteRuleError } from './route-rule-error.js';

/** Where in the path a rule's pattern matched, for a kind whose merge needs it. */
export interface RuleMatch {
  /** The pattern ends in `/**`. */
  wildcard: boolean;
  /** For a `/**` pattern: the part of the path after its prefix. */
  rest: string;
}

/** What a kind may read of an answer before it adds its headers. */
export interface AnswerFacts {
  /** False for the gateway's build files, which keep their own cache policy. */
  proxied: boolean;
  status: number;
}

/** The merged rules of one path while the matcher folds them (route-rules.ts), keyed by kind. */
export type MergingRules = Record<string, unknown>;

/**
 * `Value` is the normalised rule (in the build meta); `Input` the part of a site config's rule the
 * kind reads (route-rule-kinds.ts makes the config's type from every kind's).
 */
export interface RouteRuleKind<Value, Input = unknown> {
  /** The keys of a site config's rule this kind reads (`swr`, `isr` and `cache` for the cache). */
  readonly inputs: readonly string[];
  /** Build time: the rule's value checked and filled in, undefined when the rule has none; throws a RouteRuleError. */
  normalize(pattern: string, rule: Readonly<Input>): Value | undefined;
  /**
   * Request time: folds one matched rule's value under `name` into the merged rules, least
   * specific first. Absent: the more specific value replaces the other.
   */
  merge?(merged: MergingRules, name: string, value: Value, match: RuleMatch): void;
  /**
   * The headers the kind adds to an answer: the same function on every answer the gateway sends
   * through Fastify and on a cache hit written straight to the socket.
   */
  answerHeaders?(value: Value, answer: AnswerFacts): readonly (readonly [string, string])[];
}

/** A kind whose value is `true` or `false` under its own name. */
export function booleanKind<Name extends string>(name: Name): RouteRuleKind<boolean, { [N in Name]?: boolean }> {
  return {
    inputs: [name],
    normalize(pattern, rule) {
      const value: unknown = rule[name];
      if (value === undefined || typeof value === 'boolean') return value;
      throw new RouteRuleError(pattern, `${name} must be true or false`);
    },
  };
}
