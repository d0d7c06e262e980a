import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = resolve(import.meta.dirname, '../../../test-results/screenshots');

/** Why the browser tests cannot run here, or null. In CI a missing Chromium is a failure, not a skip. */
export function chromiumSkipReason(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const reason = `Chromium not found at ${CHROMIUM}: the browser tests are SKIPPED (apt-get install chromium, or run .ci/run).`;
  if (process.env.CI) throw new Error(`${reason} CI must run them.`);
  console.warn(`\n!!! ${reason}\n`);
  return reason;
}

export function launchChromium(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}
