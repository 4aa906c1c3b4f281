import { describe, expect, it } from 'vitest';
import type { DynamoDbLocal } from '../../local/dynamodb-local.js';
import { superviseEmulator } from '../../local/emulator-supervisor.js';

/**
 * The supervisor's rule (ADR 0028): an emulator that exits unasked is started again on its port; more
 * than 3 exits within a minute, or a start that fails, stops the server with the reason. The real
 * processes are in test/integration/local-server-crash.test.ts; here the clock decides the window.
 */
interface Handle extends DynamoDbLocal {
  die(reason: string): void;
  stopped: boolean;
}

function handle(port: number): Handle {
  let die!: (reason: string) => void;
  const exited = new Promise<string>((resolve) => (die = resolve));
  const self: Handle = {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    exited,
    die,
    stopped: false,
    async stop() {
      self.stopped = true;
      die('stopped');
    },
  };
  return self;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function supervised(options: { failRestart?: boolean } = {}) {
  let clock = 0;
  const started: Handle[] = [handle(4100)];
  const restartedOn: number[] = [];
  const reasons: string[] = [];
  const supervisor = superviseEmulator(started[0]!, {
    restart: async (port) => {
      restartedOn.push(port);
      if (options.failRestart) throw new Error('port 4100 is already in use');
      const next = handle(port);
      started.push(next);
      return next;
    },
    giveUp: (reason) => reasons.push(reason),
    now: () => clock,
  });
  return {
    supervisor,
    started,
    restartedOn,
    reasons,
    advance: (ms: number) => (clock += ms),
    current: () => started[started.length - 1]!,
  };
}

describe('the emulator supervisor', () => {
  it('starts an emulator that died again on the same port, as often as it dies less than 4 times a minute', async () => {
    const run = supervised();
    for (let death = 0; death < 10; death++) {
      run.current().die('killed by SIGKILL');
      await settle();
      run.advance(25_000);
    }
    expect(run.restartedOn).toEqual(Array(10).fill(4100));
    expect(run.reasons).toEqual([]);
  });

  it('gives up on the 4th exit within a minute, naming the count and the last reason, and restarts it no more', async () => {
    const run = supervised();
    for (let death = 0; death < 4; death++) {
      run.current().die(death === 3 ? 'exit code 137' : 'killed by SIGKILL');
      await settle();
      run.advance(10_000);
    }
    expect(run.restartedOn).toHaveLength(3);
    expect(run.reasons).toEqual(['DynamoDB Local exited 4 times within a minute (last: exit code 137)']);
  });

  it('gives up when the emulator cannot be started again, saying why', async () => {
    const run = supervised({ failRestart: true });
    run.current().die('killed by SIGKILL');
    await settle();
    expect(run.reasons).toHaveLength(1);
    expect(run.reasons[0]).toMatch(/exited \(killed by SIGKILL\) and could not be started again: port 4100 is already in use/);
  });

  it('neither restarts nor gives up when the server stops it on purpose', async () => {
    const run = supervised();
    await run.supervisor.stop();
    await settle();
    expect(run.started[0]!.stopped).toBe(true);
    expect(run.restartedOn).toEqual([]);
    expect(run.reasons).toEqual([]);
  });
});
