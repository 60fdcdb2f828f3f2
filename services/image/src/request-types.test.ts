/**
 * The gateway keeps what it learns per request in its own module (services/gateway/src/request-state.ts):
 * nothing of it reaches the type of another service's requests, which share one tsconfig with it.
 * `npm run typecheck` checks this file: a gateway field declared on FastifyRequest again fails it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';

function gatewayFieldsOf(request: FastifyRequest): unknown[] {
  return [
    // @ts-expect-error the gateway's render cache status is not a field of every request
    request.cacheStatus,
    // @ts-expect-error nor are its route rules
    request.routeRules,
    // @ts-expect-error nor where it found a client file
    request.assetSource,
  ];
}

function imageFieldsOf(app: FastifyInstance): unknown {
  // @ts-expect-error nor is the image service's pipeline a field of every app
  return app.images;
}

describe("another service's request and app types", () => {
  it('carry no field of the gateway or the image service', () => {
    expect(gatewayFieldsOf({} as FastifyRequest)).toEqual([undefined, undefined, undefined]);
    expect(imageFieldsOf({} as FastifyInstance)).toBeUndefined();
  });
});
