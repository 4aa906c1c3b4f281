import { hostname } from 'node:os';

/**
 * Who holds a lease: host, process and run (`host/pid/runId`). Leases expire on their own; naming the
 * process lets a run on the same machine take over at once from one that was killed outright.
 */
export function leaseOwnerFor(runId: string): string {
  return `${hostname()}/${process.pid}/${runId}`;
}

/** A lease owner on this machine whose process has exited (a run killed outright): its lease is free. */
export function ownerIsGone(leaseOwner: string): boolean {
  const [host, pid] = leaseOwner.split('/');
  if (host !== hostname() || !pid || Number(pid) === process.pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
