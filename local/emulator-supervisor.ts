import { logger } from '../functions/platform/observability.js';
import type { DynamoDbLocal } from './dynamodb-local.js';

/** More exits than this within the window is a crash loop: the server stops rather than restart forever. */
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 60_000;

export interface EmulatorSupervisor {
  /** Stops the emulator on purpose (no restart). */
  stop(): Promise<void>;
}

/**
 * Keeps the server's DynamoDB Local running: when its JVM exits without being asked to (killed, out of
 * memory), it is started again on the same port and database, so the server's clients reconnect
 * unchanged; meanwhile /healthz answers 503 and tools fail as unavailable. If it keeps dying, or cannot
 * be started again, `giveUp` is told why (npm start then stops the whole server cleanly).
 */
export function superviseEmulator(
  first: DynamoDbLocal,
  args: { restart: (port: number) => Promise<DynamoDbLocal>; giveUp: (reason: string) => void; now?: () => number },
): EmulatorSupervisor {
  const now = args.now ?? Date.now;
  let current = first;
  let stopping = false;
  const exits: number[] = [];

  const watch = async (): Promise<void> => {
    for (;;) {
      const reason = await current.exited;
      if (stopping) return;
      const at = now();
      exits.push(at);
      while (exits.length && at - exits[0]! > RESTART_WINDOW_MS) exits.shift();
      if (exits.length > MAX_RESTARTS) return args.giveUp(`DynamoDB Local exited ${exits.length} times within a minute (last: ${reason})`);
      logger.warn('DynamoDB Local exited unexpectedly; starting it again', { reason, port: current.port });
      try {
        const next = await args.restart(current.port);
        current = next;
        if (stopping) return await next.stop();
        logger.info('DynamoDB Local is serving again', { port: current.port });
      } catch (error) {
        return args.giveUp(`DynamoDB Local exited (${reason}) and could not be started again: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };
  void watch();

  return {
    async stop() {
      stopping = true;
      await current.stop();
    },
  };
}
