import { z } from 'zod';

/**
 * Thai provinces with their districts (amphure) and subdistricts (tambon), in the shape of the
 * public JSON file the old product loaded (spec 000 section 3): id, name_th, amphure, tambon,
 * zip_code. English names come along for the English console.
 */
export const Tambon = z.object({
  id: z.number(),
  name_th: z.string(),
  name_en: z.string(),
  zip_code: z.number().nullable(),
});
export const Amphure = z.object({ id: z.number(), name_th: z.string(), name_en: z.string(), tambon: z.array(Tambon) });
export const Province = z.object({
  id: z.number(),
  name_th: z.string(),
  name_en: z.string(),
  amphure: z.array(Amphure),
});
export const ProvinceList = z.array(Province);
export type Province = z.infer<typeof Province>;
