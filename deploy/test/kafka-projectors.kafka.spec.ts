import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModelLag } from '@portal/platform/read-models/checkpoint';
import { readPartitions } from '@portal/platform/read-models/partitions';
import { type TestDatabase, postgresDatabase, postgresSkipReason } from '@portal/platform/testing/databases';
import { kafkaSkipReason, testBrokers, testTopic } from '@portal/platform/testing/kafka';
import { scanSteadily, seedActivity } from '../src/testing/activity.ts';
import { brokerStartedByScript, restartBroker } from '../src/testing/kafka-broker.ts';
import { startService } from '../src/testing/portal-process.ts';
import { buildFromLog, readModelDifferences, readModelSizes } from '@portal/projector/testing/read-model-copies';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';
import { TEST_DATA_KEY_ENV } from '@portal/platform/testing/data-keys';

const skip = kafkaSkipReason() ?? postgresSkipReason();
if (skip && process.env.CI) throw new Error(`${skip} CI must run the Kafka projector tests.`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Projectors consuming Kafka, as production runs them: the portal (its relay and its own
 * projector) and two projector processes in one consumer group on PostgreSQL, under a steady
 * stream of scans. One projector is killed outright and the broker is restarted meanwhile; in the
 * end every read model must equal a rebuild from the log, row for row.
 */
describe.skipIf(skip !== null)('projectors sharing the log through Kafka, through faults', () => {
  const topic = testTopic('projectors');
  let url = '';
  const database: TestDatabase = {
    ...postgresDatabase,
    async open() {
      const opened = await postgresDatabase.open();
      url = opened.url!;
      return opened;
    },
  };
  let portal: TestPortal;
  const projectors: Awaited<ReturnType<typeof startService>>[] = [];
  const startProjector = async (name: string) =>
    startService('projector', {
      DATABASE_URL: url,
      KAFKA_BROKERS: testBrokers().join(','),
      KAFKA_TOPIC: topic,
      PROJECTOR_NAME: name,
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      // The key the writer (this process) wraps personal-data keys with.
      ...TEST_DATA_KEY_ENV,
    });

  beforeAll(async () => {
    portal = await openTestPortal(database, { kafka: { brokers: testBrokers(), topic } });
    projectors.push(await startProjector('projector-a'), await startProjector('projector-b'));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(projectors.map((projector) => projector.stop().catch(() => {})));
    await portal?.close();
  });

  const owners = async () => {
    const rows = await readPartitions(portal.db, 'rm');
    return rows.filter((row) => row.topic === topic);
  };
  const caughtUp = async () => (await readModelLag(portal.store, portal.db)).lagEvents === 0;
  const waitFor = async (what: string, condition: () => Promise<boolean>, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) {
        const health = (await portal.app.inject({ method: 'GET', url: '/api/health' })).json();
        throw new Error(`timed out waiting until ${what}: ${JSON.stringify(health)}`);
      }
      await sleep(200);
    }
  };

  it('shares the partitions, survives a killed projector and a broker restart, and equals a rebuild', async () => {
    // Each process runs as configured (its name and how soon the others replace it).
    const own = (await (await fetch(`${projectors[1]!.url}/api/health`)).json()) as { projector: object };
    expect(own.projector).toMatchObject({ name: 'projector-b', topic, sessionTimeoutMs: 6000 });
    const activity = await seedActivity(portal, { courses: 4, members: 5 });
    const stream = scanSteadily(portal, activity);
    try {
      // All three projectors hold partitions and apply events.
      await waitFor('both projector processes applied events', async () => {
        const rows = await owners();
        const busy = new Set(rows.filter((row) => row.appliedEvents > 0).map((row) => row.owner));
        return busy.has('projector-a') && busy.has('projector-b');
      });

      // Killed mid-stream, most likely mid-batch: the others take its partitions over.
      await projectors[0]!.kill();
      projectors.shift();
      await waitFor(
        'the killed projector’s partitions were taken over',
        async () => (await owners()).every((row) => row.owner !== 'projector-a'),
        45_000,
      );
      const before = stream.done;
      await waitFor('scans keep flowing', async () => stream.done > before + 20, 20_000);

      if (brokerStartedByScript()) {
        // Scans keep coming while the broker is down and while it starts again.
        const during = stream.done;
        await restartBroker();
        expect(stream.done).toBeGreaterThan(during);
      } else {
        if (process.env.CI) throw new Error('CI must run the broker from deploy/scripts/kafka.sh to restart it.');
        console.warn('\n!!! The broker was not started by deploy/scripts/kafka.sh: its restart is SKIPPED.\n');
      }
      const afterRestart = stream.done;
      await waitFor('scans keep flowing after the restart', async () => stream.done > afterRestart + 20, 30_000);
    } finally {
      await stream.stop();
    }
    expect(stream.done).toBeGreaterThan(60);

    await waitFor('the read models caught up with the log', caughtUp, 90_000);
    await buildFromLog(portal.db, portal.store, 'rebuilt');
    expect(await readModelDifferences(portal.db, 'rm', 'rebuilt')).toEqual([]);
    const sizes = await readModelSizes(portal.db, 'rm');
    expect(sizes.scan_attempts).toBeGreaterThan(60);

    // Health shows each projector and how far behind it is; the survivors hold every partition.
    const health = (await portal.app.inject({ method: 'GET', url: '/api/health' })).json();
    expect(health.readModels).toMatchObject({ lagEvents: 0 });
    const names = health.projectors.map((projector: { name: string }) => projector.name);
    expect(names).toContain('projector-b');
    expect(names).not.toContain('projector-a');
    expect(health.projectors.flatMap((projector: { partitions: number[] }) => projector.partitions).sort()).toEqual([
      0, 1, 2, 3, 4, 5,
    ]);
    for (const projector of health.projectors) expect(projector).toMatchObject({ lagEvents: 0, lagSeconds: 0 });
    // The admins' lag screen says the same.
    const screen = (
      await portal.app.inject({
        method: 'GET',
        url: '/api/admin/projectors',
        headers: { authorization: `Bearer ${portal.adminToken}` },
      })
    ).json();
    expect(screen).toMatchObject({ mode: 'kafka', readModels: { lagEvents: 0 } });
    expect(screen.projectors.map((projector: { name: string }) => projector.name).sort()).toEqual([...names].sort());
  }, 300_000);
});
