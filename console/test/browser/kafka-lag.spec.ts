import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { kafkaSkipReason, testBrokers, testTopic } from '@portal/platform/testing/kafka';
import { ADMIN, SCREENSHOTS, chromiumSkipReason, signIn, withPortalAndBrowser } from './chromium.ts';

/**
 * `npm start` with KAFKA_BROKERS: the relay and the projector in the process go through Kafka,
 * and the admins' overview shows the projector, its partitions and its lag, in both languages.
 */
describe.skipIf(chromiumSkipReason() ?? kafkaSkipReason())('the overview of projectors reading Kafka', () => {
  let portal: RunningPortal;
  let browser: Browser;
  withPortalAndBrowser((started) => ({ portal, browser } = started), {
    database: 'pglite',
    env: { KAFKA_BROKERS: testBrokers().join(','), KAFKA_TOPIC: testTopic('browser') },
  });

  it('shows the projector holding all six partitions, caught up', async () => {
    const page = await signIn(browser, portal.url, ADMIN);
    const lag = page.getByTestId('projector-lag');
    await lag.getByText('Projectors read the event log from Kafka; each holds some of its partitions.').waitFor();
    await lag.getByText('All reports: 0 events, 0 s behind').waitFor();
    const row = await lag.locator('tbody tr').innerText();
    expect(row).toMatch(/\t0, 1, 2, 3, 4, 5\t\d+\t0\t0\t/);
    await lag.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'projectors-kafka-en.png'), fullPage: true });
    await page.context().close();

    const thai = await signIn(browser, portal.url, ADMIN, { lang: 'th' });
    await thai
      .getByTestId('projector-lag')
      .getByText('ตัวประมวลผลอ่านบันทึกเหตุการณ์ผ่าน Kafka โดยแต่ละตัวดูแลบางพาร์ทิชัน')
      .waitFor();
    await thai.screenshot({ path: join(SCREENSHOTS, 'projectors-kafka-th.png'), fullPage: true });
    await thai.context().close();
  });
});
