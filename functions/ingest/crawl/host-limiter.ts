/**
 * At most `maxInFlight` requests to one host at a time, and none while the host has asked us to wait
 * (a 429 or 503 with Retry-After pauses every request to it, not only the one that was refused).
 * Waiters are served in arrival order, so a crawl's pages go out in the order it asked for them.
 */
export class HostLimiter {
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private pausedUntil = 0;
  private pauseTimer?: NodeJS.Timeout;

  constructor(private readonly maxInFlight: number) {
    if (!Number.isInteger(maxInFlight) || maxInFlight < 1) throw new Error(`maxInFlight must be a positive integer, got ${maxInFlight}`);
  }

  /** Resolves holding a slot; call the returned function exactly once to give it back. */
  async acquire(): Promise<() => void> {
    if (this.waiting.length === 0 && this.canStart()) this.inFlight++;
    // A woken waiter is handed its slot by wake(), counted before it resumes.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight--;
      this.wake();
    };
  }

  /** No request starts before `until` (epoch ms); an earlier pause never shortens a later one. */
  pauseUntil(until: number): void {
    if (until <= this.pausedUntil) return;
    this.pausedUntil = until;
    clearTimeout(this.pauseTimer);
    this.pauseTimer = setTimeout(() => this.wake(), Math.max(0, until - Date.now()) + 1);
    this.pauseTimer.unref?.();
  }

  private canStart(): boolean {
    return this.inFlight < this.maxInFlight && Date.now() >= this.pausedUntil;
  }

  private wake(): void {
    while (this.waiting.length > 0 && this.canStart()) {
      this.inFlight++;
      this.waiting.shift()!();
    }
  }
}
