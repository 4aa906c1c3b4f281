import type { Store } from '../store/dynamo-client.js';
import { consumeQuota, quotaWindow } from '../store/quota-counter.js';

export interface AttemptLimit {
  /** The counter's kind (its key). */
  kind: string;
  max: number;
  windowMs: number;
}

/**
 * Attempts one network address may make in a window (ADR 0027). Failed sign-ins and bearer tokens
 * that do not verify are guesses at a secret; registrations are cheap to send and stored. Addresses
 * are counted by the IPv6 /64 (clientAddressOf), in the table's quota counters, so every process agrees.
 */
export const ATTEMPT_LIMITS = {
  signInFailures: { kind: 'sign-in-failures', max: 10, windowMs: 15 * 60_000 },
  bearerFailures: { kind: 'bearer-failures', max: 30, windowMs: 10 * 60_000 },
  /** Registrations naming any redirect URI the policy allows (loopback, the operator's). */
  registrations: { kind: 'client-registrations', max: 60, windowMs: 60 * 60_000 },
  /**
   * Registrations naming only hosted connectors' callbacks (Claude.ai, ChatGPT…): those services register
   * on every connection, for all their users, from a few addresses of theirs, and a client registered
   * so can only ever send its codes to them.
   */
  connectorRegistrations: { kind: 'connector-registrations', max: 2_000, windowMs: 60 * 60_000 },
} as const satisfies Record<string, AttemptLimit>;

/** Quota counters of an address sit under a pseudo-user no real user id can be (`~` as the anonymous pool's). */
const addressOwner = (address: string) => `~address:${address}`;

/**
 * Counts attempts per address against one limit. An address found over it is remembered until its
 * window ends, so further attempts from it cost no store call in this process.
 */
export class AddressLimiter {
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    private readonly store: Store,
    readonly limit: AttemptLimit,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Seconds until the address may try again, when this process knows it is over the limit. */
  blockedFor(address: string): number | undefined {
    const until = this.blockedUntil.get(address);
    if (until === undefined) return undefined;
    const now = this.now().getTime();
    if (until <= now) {
      this.blockedUntil.delete(address);
      return undefined;
    }
    return Math.ceil((until - now) / 1000);
  }

  /** Counts one attempt; the seconds to wait when it is over the limit (the attempt is then refused). */
  async count(address: string): Promise<number | undefined> {
    const now = this.now();
    const window = quotaWindow(this.limit.windowMs, now);
    const result = await consumeQuota(this.store, { userId: addressOwner(address), kind: this.limit.kind, max: this.limit.max, window });
    if (result.admitted) return undefined;
    if (this.blockedUntil.size > 100_000) this.blockedUntil.clear();
    this.blockedUntil.set(address, window.endsAt.getTime());
    return Math.max(1, Math.ceil((window.endsAt.getTime() - now.getTime()) / 1000));
  }
}
