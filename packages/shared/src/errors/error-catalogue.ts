/**
 * How a service lists its errors, as fastify lists its `FST_ERR_*`: one catalogue per service, each
 * entry a stable code with its status and its message. An entry is a maker of createError's init:
 * `createError({ ...GATEWAY_ERRORS.GW_UPSTREAM_TIMEOUT('renderer'), data })`. Browser-safe.
 */
import type { HttpErrorInit } from './errors.js';

/** A text, or a function of the entry's arguments that makes it. */
type Text<A extends unknown[]> = string | ((...args: A) => string);

/** One entry: a status and a message; an entry with only a statusMessage repeats it as the message. */
export interface ErrorEntry<A extends unknown[] = never[]> {
  statusCode: number;
  message?: Text<A>;
  statusMessage?: Text<A>;
}

/** The arguments an entry's texts take (none for plain strings). */
type ArgsOf<E> = E extends { message: (...args: infer A) => string }
  ? A
  : E extends { statusMessage: (...args: infer A) => string }
    ? A
    : [];

/** What an entry makes: createError's init with its code, status and texts. */
export type CodedInit<C extends string> = HttpErrorInit & { code: C; statusCode: number };

/** An entry's maker, which also says its code and status without making anything. */
export type ErrorMaker<C extends string, A extends unknown[]> = ((...args: A) => CodedInit<C>) & {
  readonly code: C;
  readonly statusCode: number;
};

export type Catalogue<E> = { readonly [C in keyof E & string]: ErrorMaker<C, ArgsOf<E[C]>> };

function textOf(text: Text<never[]> | undefined, args: unknown[]): string | undefined {
  return typeof text === 'function' ? text(...(args as never[])) : text;
}

/** A service's catalogue: each key is the code its maker stamps on the error. */
/* @__NO_SIDE_EFFECTS__ */
export function defineErrors<const E extends Record<string, ErrorEntry>>(entries: E): Catalogue<E> {
  const makers = Object.entries(entries).map(([code, entry]) => {
    const make = (...args: unknown[]): CodedInit<string> => {
      const init: CodedInit<string> = { code, statusCode: entry.statusCode };
      const message = textOf(entry.message, args);
      const statusMessage = textOf(entry.statusMessage, args);
      if (message !== undefined) init.message = message;
      if (statusMessage !== undefined) init.statusMessage = statusMessage;
      return init;
    };
    return [code, Object.assign(make, { code, statusCode: entry.statusCode })] as const;
  });
  return Object.freeze(Object.fromEntries(makers)) as unknown as Catalogue<E>;
}
