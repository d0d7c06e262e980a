import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const root = resolve(import.meta.dirname, '../../..');
const script = join(root, 'deploy/scripts/kafka.sh');

/** Whether the broker the tests use was started by deploy/scripts/kafka.sh (so they may restart it). */
export const brokerStartedByScript = () =>
  existsSync(join(process.env.KAFKA_DIR ?? join(root, '.kafka'), 'broker.pid'));

/**
 * Stops the broker and starts it again (storage kept), as an operator's restart or a crash and
 * recovery would; the caller's work goes on meanwhile.
 */
export async function restartBroker(): Promise<void> {
  await promisify(execFile)(script, ['restart'], { cwd: root, timeout: 120_000 });
}
