import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { getDistricts, getProvinces, getSubDistricts } from 'thai-address-universal';
import { type Province, ProvinceList } from '@portal/contracts/views/address';
import { installCacheFolder, writeFileWhole } from '@portal/platform/files/install-cache';

/** Thai alphabetical order: one collator for every comparison (a locale string per call makes one each time). */
const thai = new Intl.Collator('th');
const byThaiName = (a: { name_th: string }, b: { name_th: string }) => thai.compare(a.name_th, b.name_th);

/** One turn of the event loop: what is waiting (a request, a signal) runs before the build goes on. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The whole tree from the published `thai-address-universal` package (official geocodes as ids),
 * one district after another with a turn of the event loop between them. Each lookup goes through
 * the whole country's 7,498 rows: a district's takes a few milliseconds, the 928 of them seconds
 * of CPU in all, and its promises are already resolved, so the build, awaited in one chain, let
 * nothing else run until it ended (a request just after the start waited for all of it).
 */
export async function buildAddressTree(): Promise<Province[]> {
  const tree: Province[] = [];
  for (const province of await getProvinces()) {
    const amphure: Province['amphure'] = [];
    for (const district of await getDistricts(province.code)) {
      await turn();
      const subdistricts = await getSubDistricts(district.code);
      amphure.push({
        id: Number(district.code),
        name_th: district.nameTh,
        name_en: district.nameEn,
        // The package also lists some uninhabited islands without a postal code; nobody lives
        // there, and the picker's rule (a subdistrict fills the postal code) needs one.
        tambon: subdistricts
          .filter((sub) => /^\d{5}$/.test(sub.postalCode ?? ''))
          .map((sub) => ({
            id: Number(sub.code),
            name_th: sub.nameTh,
            name_en: sub.nameEn,
            zip_code: Number(sub.postalCode),
          }))
          .sort(byThaiName),
      });
    }
    tree.push({
      id: Number(province.code),
      name_th: province.nameTh,
      name_en: province.nameEn,
      amphure: amphure.sort(byThaiName),
    });
  }
  return tree.sort(byThaiName);
}

/**
 * Where `npm ci` keeps the tree it built (deploy/scripts/address-tree.ts), under node_modules/.cache:
 * named by the package's version and by ICU's, whose Thai collation gives the tree its order.
 * PORTAL_ADDRESS_TREE_DIR overrides the folder (tests).
 */
export function keptTreePath(): string {
  const { version } = createRequire(import.meta.url)('thai-address-universal/package.json') as { version: string };
  const folder = installCacheFolder('portal-addresses', process.env.PORTAL_ADDRESS_TREE_DIR);
  return join(folder, `tree-${version}-icu-${process.versions.icu ?? 'none'}.json`);
}

/** Builds the tree and keeps it at `path`, whole or not at all. */
export async function keepAddressTree(path = keptTreePath()): Promise<void> {
  writeFileWhole(path, JSON.stringify(await buildAddressTree()));
}

/** The tree `npm ci` kept, or null when there is none for this package and ICU, or it is not a tree. */
function keptTree(): Province[] | null {
  try {
    const path = keptTreePath();
    if (!existsSync(path)) return null;
    const kept = ProvinceList.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return kept.success && kept.data.length > 0 ? kept.data : null;
  } catch {
    return null;
  }
}

let tree: Promise<Province[]> | null = null;

/**
 * The tree, once per process: the one `npm ci` kept (read in milliseconds), else built
 * (buildAddressTree: seconds of CPU, which every start of the portal paid just after it was
 * ready, docs/performance.md, machine AF).
 */
export function thaiAddresses(): Promise<Province[]> {
  tree ??= Promise.resolve()
    .then(() => keptTree() ?? buildAddressTree())
    .catch((error: unknown) => {
      tree = null; // let the next request try again
      throw error;
    });
  return tree;
}
