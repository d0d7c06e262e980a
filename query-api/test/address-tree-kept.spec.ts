import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Province } from '@portal/contracts/views/address';

/**
 * `npm ci` keeps the Thai address tree it built (deploy/scripts/address-tree.ts), and a start of
 * the portal reads it instead of spending seconds of CPU building it again; anything at its place
 * that is not such a tree is passed over, and the tree is built as before.
 */
describe('the Thai address tree npm ci keeps', () => {
  const folder = mkdtempSync(join(tmpdir(), 'portal-address-tree-'));
  const before = process.env.PORTAL_ADDRESS_TREE_DIR;
  process.env.PORTAL_ADDRESS_TREE_DIR = folder;
  afterAll(() => {
    if (before === undefined) delete process.env.PORTAL_ADDRESS_TREE_DIR;
    else process.env.PORTAL_ADDRESS_TREE_DIR = before;
    rmSync(folder, { recursive: true, force: true });
  });
  /** The module anew: it holds its tree once per process. */
  const fresh = async () => {
    vi.resetModules();
    return import('../src/core/thai-addresses.ts');
  };
  beforeEach(async () => rmSync((await fresh()).keptTreePath(), { force: true }));

  it('is the tree a build gives, province by province, through its JSON', async () => {
    const { buildAddressTree, keepAddressTree, keptTreePath } = await fresh();
    await keepAddressTree();
    const kept = JSON.parse(readFileSync(keptTreePath(), 'utf8')) as Province[];
    expect(kept).toEqual(await buildAddressTree());
    expect(kept.length).toBe(77);
  }, 60_000);

  it('is what a start serves, without building one', async () => {
    const { keptTreePath, thaiAddresses } = await fresh();
    const one: Province[] = [
      {
        id: 10,
        name_th: 'กรุงเทพมหานคร',
        name_en: 'Bangkok',
        amphure: [{ id: 1001, name_th: 'พระนคร', name_en: 'Phra Nakhon', tambon: [] }],
      },
    ];
    writeFileSync(keptTreePath(), JSON.stringify(one));
    expect(await thaiAddresses()).toEqual(one);
  });

  it.each([
    ['cut short', '[{"id":10,"name_th":"กรุง'],
    ['of another shape', '[{"id":"10"}]'],
    ['empty', '[]'],
  ])(
    'is built again when the kept file is %s',
    async (_, text) => {
      const { keptTreePath, thaiAddresses } = await fresh();
      writeFileSync(keptTreePath(), text);
      const served = await thaiAddresses();
      expect(served.length).toBe(77);
      expect(served.flatMap((province) => province.amphure).length).toBeGreaterThan(900);
    },
    60_000,
  );
});
