import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

/**
 * A Y4M video (what Chromium's fake camera plays) showing `png` centred on white: 640x480 (or
 * `frame`), I420. Chromium loops it, so a few identical frames are enough. The code is 240 px
 * across (or `code`): the scanner decodes only its box (80% of the view's shorter side), in the
 * view's own pixels, so a code must fit the box yet be large enough once the view is shrunk to a
 * phone's width; a square frame with the code at three quarters of it does both at 375 px.
 */
export async function y4mOf(png: Buffer, { frame = [640, 480], code = 240 } = {}): Promise<Buffer> {
  const [width, height] = frame as [number, number];
  const [left, top] = [Math.floor((width - code) / 2), Math.floor((height - code) / 2)];
  const { data } = await sharp(png)
    .resize(code, code, { fit: 'contain', background: '#ffffff' })
    .extend({ top, bottom: height - code - top, left, right: width - code - left, background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const y = Buffer.alloc(width * height);
  const u = Buffer.alloc((width / 2) * (height / 2), 128);
  const v = Buffer.alloc((width / 2) * (height / 2), 128);
  for (let i = 0; i < width * height; i++) {
    const [r, g, b] = [data[i * 3]!, data[i * 3 + 1]!, data[i * 3 + 2]!];
    y[i] = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
  }
  const picture = Buffer.concat([Buffer.from('FRAME\n'), y, u, v]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  return Buffer.concat([header, ...Array.from({ length: 5 }, () => picture)]);
}

/** Why Chromium cannot be made to trust a certificate authority here (NSS's certutil missing), or null. */
export function certutilSkipReason(): string | null {
  try {
    execFileSync('certutil', ['-H'], { stdio: 'ignore' });
    return null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return 'certutil (Debian package libnss3-tools) is not installed: the LAN https browser test is SKIPPED';
    }
    return null; // -H prints help and exits non-zero
  }
}

/**
 * A HOME whose NSS store trusts `caCertPath`, as a phone trusts the portal's authority once the
 * person installed it: Chromium on Linux reads ~/.pki/nssdb.
 */
export function homeTrusting(caCertPath: string): string {
  const home = mkdtempSync(join(tmpdir(), 'chromium-home-'));
  const db = `sql:${join(home, '.pki/nssdb')}`;
  mkdirSync(join(home, '.pki/nssdb'), { recursive: true });
  execFileSync('certutil', ['-N', '--empty-password', '-d', db]);
  execFileSync('certutil', ['-A', '-t', 'C,,', '-n', 'portal-ca', '-i', caCertPath, '-d', db]);
  return home;
}
