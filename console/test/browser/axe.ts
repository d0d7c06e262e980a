import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One thing axe found wrong on a page: the rule, how bad, and where (a few selectors). */
export interface Violation {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * What axe-core finds on the page as it stands, serious or critical only: WCAG 2.1 A and AA
 * (colour contrast included) and WCAG 2.2's 24 px target size. axe is evaluated through the
 * DevTools protocol, so the portal's Content-Security-Policy is not loosened for it.
 */
export async function axeViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<AxeResults> } }).axe;
    interface AxeResults {
      violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
    }
    const results = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      resultTypes: ['violations'],
    });
    return results.violations.map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? 'unknown',
      help: violation.help,
      targets: violation.nodes.slice(0, 4).map((node) => node.target.join(' ')),
    }));
  });
  return found.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}
