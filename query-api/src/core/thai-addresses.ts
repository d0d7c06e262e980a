import { getDistricts, getProvinces, getSubDistricts } from 'thai-address-universal';
import type { Province } from '@portal/contracts/views/address';

const byThaiName = (a: { name_th: string }, b: { name_th: string }) => a.name_th.localeCompare(b.name_th, 'th');

/**
 * The whole tree from the published `thai-address-universal` package (official geocodes as ids),
 * built once per process: its lookups are asynchronous and take a few seconds in all.
 */
async function buildTree(): Promise<Province[]> {
  const provinces = await getProvinces();
  const tree = await Promise.all(
    provinces.map(async (province) => {
      const districts = await getDistricts(province.code);
      const amphure = await Promise.all(
        districts.map(async (district) => {
          const subdistricts = await getSubDistricts(district.code);
          return {
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
          };
        }),
      );
      return {
        id: Number(province.code),
        name_th: province.nameTh,
        name_en: province.nameEn,
        amphure: amphure.sort(byThaiName),
      };
    }),
  );
  return tree.sort(byThaiName);
}

let tree: Promise<Province[]> | null = null;

export function thaiAddresses(): Promise<Province[]> {
  tree ??= buildTree().catch((error: unknown) => {
    tree = null; // let the next request try again
    throw error;
  });
  return tree;
}
