import { getDistricts, getProvinces, getSubDistricts } from 'thai-address-universal';
import type { Province } from '@portal/contracts/views/address';

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

let tree: Promise<Province[]> | null = null;

/** The tree, built once per process (buildAddressTree). */
export function thaiAddresses(): Promise<Province[]> {
  tree ??= buildAddressTree().catch((error: unknown) => {
    tree = null; // let the next request try again
    throw error;
  });
  return tree;
}
