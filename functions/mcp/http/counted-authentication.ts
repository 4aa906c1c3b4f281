import { AddressLimiter, ATTEMPT_LIMITS } from '../../platform/auth/attempt-limits.js';
import { isGuess } from '../../platform/auth/authenticator.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { Services } from '../../platform/services.js';
import { storeUnavailable } from '../../platform/store/store-unavailable.js';
import { ToolError } from '../tools/errors.js';
import { clientAddressOf } from './client-address.js';

export type CountedAuthentication = (request: Request, authorization: string | null, resourceBase: string) => Promise<Principal>;

/**
 * Authentication as every request gets it (ADR 0027): a bearer token that verifies against nothing
 * counts as a guess for the request's address, and past the limit the address's tokens are not checked
 * at all (RATE_LIMITED with retryAfter) until its window ends.
 */
export function countedAuthentication(services: Services): CountedAuthentication {
  const guesses = new AddressLimiter(services.store, ATTEMPT_LIMITS.bearerFailures, services.now);
  const tooManyGuesses = (retryAfter: number) =>
    new ToolError('RATE_LIMITED', 'Too many bearer tokens that are not valid came from your network; wait before trying again.', { reason: 'invalid bearer tokens', retryAfter });
  return async (request, authorization, resourceBase) => {
    const address = clientAddressOf(request);
    const blocked = authorization ? guesses.blockedFor(address) : undefined;
    if (blocked) throw tooManyGuesses(blocked);
    try {
      return await services.authenticator.authenticate(authorization, { resourceBase });
    } catch (error) {
      let refusal = error;
      try {
        const wait = isGuess(error) ? await guesses.count(address) : undefined;
        if (wait) refusal = tooManyGuesses(wait);
      } catch (countFailed) {
        refusal = countFailed;
      }
      // A token that needs the table to be checked (a personal access token, a grant), or a guess to be
      // counted, while the table is down: unavailable, retry (503), not a failure of ours.
      const unavailable = storeUnavailable(refusal);
      throw unavailable ? new ToolError('SERVICE_UNAVAILABLE', unavailable.message, unavailable.details) : refusal;
    }
  };
}
