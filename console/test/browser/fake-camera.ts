import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import QRCode from 'qrcode';
import sharp from 'sharp';

/**
 * A Y4M video (what Chromium's fake camera plays) showing `png` on white: 640x480 (or `frame`),
 * I420, looped by Chromium. The code is 240 px across (or `code`). Like a hand-held phone, the
 * frames differ a little (the code a few pixels elsewhere, a little larger or smaller, turned a
 * few degrees):
 * the scanner's decoder fails on about one static image of a signed pass in ten, every time it
 * looks, while from a handful of slightly different frames it reads every one. The scanner
 * decodes only its box (80% of the view's shorter side), in the view's own pixels, so a code
 * must fit the box yet be large enough once the view is shrunk to a phone's width.
 */
export async function y4mOf(png: Buffer, { frame = [640, 480], code = 240 } = {}): Promise<Buffer> {
  const [width, height] = frame as [number, number];
  const poses: [dx: number, dy: number, scale: number, degrees: number][] = [
    [0, 0, 1, 0],
    [5, -3, 0.97, 2],
    [-4, 4, 1.02, -3],
    [3, 6, 0.95, 1],
    [-6, -5, 1.03, -1.5],
    [7, 2, 0.99, 4],
    [-2, -7, 0.96, -4],
    [4, 3, 1.01, 3],
  ];
  const pictures: Buffer[] = [];
  for (const [dx, dy, scale, degrees] of poses) {
    const size = Math.min(Math.round(code * scale), width, height);
    const turned = await sharp(png).rotate(degrees, { background: '#ffffff' }).png().toBuffer();
    const left = Math.max(0, Math.min(width - size, Math.floor((width - size) / 2) + dx));
    const top = Math.max(0, Math.min(height - size, Math.floor((height - size) / 2) + dy));
    const { data } = await sharp(turned)
      .resize(size, size, { fit: 'contain', background: '#ffffff' })
      .extend({ top, bottom: height - size - top, left, right: width - size - left, background: '#ffffff' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const y = Buffer.alloc(width * height);
    for (let i = 0; i < width * height; i++) {
      y[i] = Math.round(0.299 * data[i * 3]! + 0.587 * data[i * 3 + 1]! + 0.114 * data[i * 3 + 2]!);
    }
    const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
    pictures.push(Buffer.from('FRAME\n'), y, chroma, chroma);
  }
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  return Buffer.concat([header, ...pictures]);
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

/** A camera looking at a white wall: nothing to decode (before the pass is shown). */
export async function blankY4m(frame: [number, number] = [480, 480]): Promise<Buffer> {
  const white = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();
  return y4mOf(white, { frame, code: Math.min(...frame) });
}

/**
 * What a member's pass looks like to the camera: `code` as a QR with whole pixels per module (7,
 * so nothing is resampled before Chromium plays it), low error correction as the pass page draws
 * it, centred in a square frame. A static frame is read the same way every time, so a blurred
 * one would fail the same way every time; a real camera's frames vary.
 */
export async function passVideo(code: string): Promise<Buffer> {
  const png = await QRCode.toBuffer(code, { scale: 7, margin: 2, errorCorrectionLevel: 'L' });
  const { width } = await sharp(png).metadata();
  return y4mOf(png, { frame: [480, 480], code: width! });
}
