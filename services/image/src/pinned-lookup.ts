/**
 * The DNS step of a remote fetch, done by us at connect time: the name is resolved once, every
 * answer is checked, and the socket connects to the checked address (no rebinding in between).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isPublicAddress } from './address-policy.js';

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Thrown when a name resolves to an address the policy refuses. */
export class ForbiddenAddressError extends Error {
  readonly code = 'IMAGE_FORBIDDEN_ADDRESS';
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`Refusing to connect to ${hostname}: ${address} is not a public address`);
    this.name = 'ForbiddenAddressError';
  }
}

export interface AddressPolicy {
  resolve: Resolver;
  /** Addresses allowed although not public: for tests against a local server only. */
  allowAddresses: ReadonlySet<string>;
}

export function isAllowedAddress(address: string, policy: AddressPolicy): boolean {
  return policy.allowAddresses.has(address) || isPublicAddress(address);
}

export function pinnedLookup(policy: AddressPolicy): LookupFunction {
  return function checkedLookup(hostname, options, callback) {
    policy.resolve(hostname).then(
      (answers) => {
        const refused = answers.find((a) => !isAllowedAddress(a.address, policy));
        if (refused || answers.length === 0) {
          callback(new ForbiddenAddressError(hostname, refused?.address ?? 'no address'), '', 4);
          return;
        }
        if (options.all) callback(null, answers);
        else callback(null, answers[0]!.address, answers[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  } as LookupFunction;
}
