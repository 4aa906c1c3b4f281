import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { declareAccessPatterns, param } from '../../platform/store/access-patterns.js';
import type { Store } from '../../platform/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../../platform/store/keys.js';
import { leaseOwnerFor, ownerIsGone } from '../../platform/lease-owner.js';

export interface LeaseOptions {
  /** How long the lease holds without renewal; renewed every quarter of it while the run lasts. @default 120 s */
  leaseMs?: number;
  /** How long a run waits for another run of its source before refusing. @default the lease's length and 30 s more */
  waitMs?: number;
  /** Told once when the run starts waiting (the CLI says so). */
  onWait?: (held: { owner: string; until: Date }) => void;
}

/** Another run of the source holds its lease: this one wrote nothing. */
export class SourceBusy extends Error {}

/** The lease lapsed or was taken while this run held it: it stops before its next write. */
export class LeaseLost extends Error {}

export interface SourceLease {
  /** A run that took the source after one cut short while writing: what that run changed may not be announced yet. */
  readonly inheritedUnfinished: boolean;
  /** Throws LeaseLost unless the lease is still this run's. Checked before every write. */
  assertHeld(): void;
  /** Noted before the first write: a run cut short after it leaves the note for the next run. */
  markWriting(): Promise<void>;
  /** Gives the source back; `finished` clears the note (the run announced what it wrote). */
  release(finished: boolean): Promise<void>;
}

const isConditionFailure = (error: unknown) => (error as { name?: string }).name === 'ConditionalCheckFailedException';

/**
 * Takes the lease of one source: only the run holding it writes what the source owns, so two runs of a
 * source (a schedule and an operator's `npm run ingest`, two operators) never interleave their writes.
 * Taken by a conditional write (free, lapsed, or a dead local process's), renewed while the run lasts;
 * a second run waits for it, then refuses with a message naming the holder.
 */
export async function takeSourceLease(store: Store, source: string, runId: string, options: LeaseOptions = {}): Promise<SourceLease> {
  const leaseMs = options.leaseMs ?? 120_000;
  const owner = leaseOwnerFor(runId);
  const key = catalogKeys.sourceLease(source);
  const waitUntil = Date.now() + (options.waitMs ?? leaseMs + 30_000);
  let told = false;
  let asOf = Date.now();
  let deadHolder: string | undefined;
  let taken: Record<string, unknown>;
  for (;;) {
    try {
      taken = (
        await store.doc.send(
          new UpdateCommand({
            TableName: store.tableName,
            Key: key,
            UpdateExpression: 'SET leaseOwner = :owner, leaseUntil = :until, entity = :entity',
            ConditionExpression: 'attribute_not_exists(leaseOwner) OR leaseOwner = :owner OR leaseUntil < :now',
            ExpressionAttributeValues: { ':owner': owner, ':until': Date.now() + leaseMs, ':now': asOf, ':entity': ENTITY.sourceLease },
            ReturnValues: 'ALL_OLD',
          }),
        )
      ).Attributes ?? {};
      break;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const held = (await store.doc.send(new GetCommand({ TableName: store.tableName, Key: key, ConsistentRead: true }))).Item;
    const holder = typeof held?.leaseOwner === 'string' ? held.leaseOwner : 'unknown';
    const until = Number(held?.leaseUntil ?? 0);
    // A lease of a process on this machine that has exited is free (a run killed outright): taken as if lapsed.
    if (holder !== deadHolder && ownerIsGone(holder)) {
      deadHolder = holder;
      asOf = until + 1;
      continue;
    }
    if (Date.now() >= waitUntil) {
      throw new SourceBusy(
        `Another run of ${source} is writing (${holder}) and holds the source until ${new Date(until).toISOString()}; this run waited and stopped without writing. Run it again once that run has finished.`,
      );
    }
    if (!told) options.onWait?.({ owner: holder, until: new Date(until) });
    told = true;
    await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, Math.max(50, waitUntil - Date.now()))));
    asOf = Date.now();
  }

  let heldUntil = Date.now() + leaseMs;
  let lost = false;
  const renew = async () => {
    const until = Date.now() + leaseMs;
    try {
      await conditional(store, key, owner, 'SET leaseUntil = :until', { ':until': until });
      heldUntil = until;
    } catch (error) {
      // A store error is retried at the next beat; a refused renewal means another run took the source.
      if (isConditionFailure(error)) lost = true;
    }
  };
  const beat = setInterval(() => void renew(), Math.max(10, Math.floor(leaseMs / 4)));
  beat.unref();
  return {
    inheritedUnfinished: typeof taken.unfinished === 'string',
    assertHeld() {
      if (lost || Date.now() >= heldUntil) {
        throw new LeaseLost(`The lease on ${source} lapsed or was taken by another run; this run stopped before writing more. Run it again: it finishes what this one started.`);
      }
    },
    async markWriting() {
      await conditional(store, key, owner, 'SET unfinished = :run', { ':run': runId });
    },
    async release(finished) {
      clearInterval(beat);
      await conditional(store, key, owner, `REMOVE leaseOwner, leaseUntil${finished ? ', unfinished' : ''}`, {}).catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
      });
    },
  };
}

function conditional(store: Store, key: Record<string, string>, owner: string, update: string, values: Record<string, unknown>) {
  return store.doc.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: key,
      UpdateExpression: update,
      ConditionExpression: 'leaseOwner = :owner',
      ExpressionAttributeValues: { ':owner': owner, ...values },
    }),
  );
}


export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => [
  {
    name: "Who holds a source's lease",
    entity: ENTITY.sourceLease,
    operation: 'GetItem',
    index: 'table',
    key: catalogKeys.sourceLease(param('source')),
    usedBy: ['ingestion (a run that found the lease held)'],
    notes: 'Consistent read: the holder and its expiry, for the message of a run that waits or refuses, and whether the holder is a dead local process.',
  },
  {
    name: "Take, renew or give back a source's lease",
    entity: ENTITY.sourceLease,
    operation: 'UpdateItem',
    index: 'table',
    key: catalogKeys.sourceLease(param('source')),
    usedBy: ['ingestion (every run: taken at the start, renewed every quarter of its length, given back at the end)'],
    notes:
      'Taken when free, lapsed or ours (attribute_not_exists(leaseOwner) OR leaseOwner = :me OR leaseUntil < :now); renewed and given back only while ours. `unfinished` is set before a run\'s first write and cleared when it has announced them, so a run after one cut short bumps the catalog version even if it writes nothing.',
  },
]);
