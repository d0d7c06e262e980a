import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '@portal/platform/http/server-kit';
import type { Province } from '@portal/contracts/views/address';
import { addressRoutes } from '../src/routes/addresses/addresses.routes.ts';

describe('GET /api/address/provinces', () => {
  let app: Awaited<ReturnType<typeof createHttpServer>>;
  let provinces: Province[];

  beforeAll(async () => {
    app = await createHttpServer({ title: 'test', sessionSecret: 'address-test-secret-of-enough-length' });
    await app.register(addressRoutes);
    const response = await app.inject({ method: 'GET', url: '/api/address/provinces' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('max-age');
    provinces = response.json();
  });
  afterAll(() => app.close());

  const find = <T extends { name_th: string }>(list: T[], name: string): T => {
    const found = list.find((item) => item.name_th === name);
    if (!found) throw new Error(`${name} not found`);
    return found;
  };

  it('serves all 77 provinces, without signing in, in Thai alphabetical order', () => {
    expect(provinces).toHaveLength(77);
    const names = provinces.map((p) => p.name_th);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'th')));
  });

  it("answers in the spec's shape: id, name_th, amphure, tambon, zip_code (and English names)", () => {
    const bangkok = find(provinces, 'กรุงเทพมหานคร');
    expect(bangkok.name_en).toBe('Bangkok');
    const lumphini = find(find(bangkok.amphure, 'ปทุมวัน').tambon, 'ลุมพินี');
    expect(lumphini).toMatchObject({ name_en: 'Lumpini', zip_code: 10330 });
    expect(typeof lumphini.id).toBe('number');
    const siPhum = find(find(find(provinces, 'เชียงใหม่').amphure, 'เมืองเชียงใหม่').tambon, 'ศรีภูมิ');
    expect(siPhum.zip_code).toBe(50200);
  });

  it('has every district with subdistricts, and five-digit postal codes', () => {
    const amphure = provinces.flatMap((p) => p.amphure);
    const tambon = amphure.flatMap((a) => a.tambon);
    expect(amphure.length).toBeGreaterThan(900);
    expect(tambon.length).toBeGreaterThan(7000);
    expect(amphure.every((a) => a.tambon.length > 0)).toBe(true);
    expect(tambon.every((t) => /^[1-9]\d{4}$/.test(String(t.zip_code)))).toBe(true);
  });
});
