import { X509Certificate } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** Where a phone downloads the portal's local certificate authority, and how to trust it. */
export const TRUST_PATH = '/trust';
const CERT_PATH = `${TRUST_PATH}/portal-ca.crt`;

/**
 * The page a phone opens once to trust the portal's local certificate authority (see
 * ./local-tls.ts), in English and Thai, and the certificate itself. Public: a certificate is
 * not a secret, and the phone has no session yet.
 */
export async function trustRoutes(app: FastifyInstance, options: { caCert: string }): Promise<void> {
  const ca = new X509Certificate(options.caCert);
  const fingerprint = ca.fingerprint256;
  app.get(CERT_PATH, { schema: { hide: true } }, (_request, reply) =>
    reply
      .type('application/x-x509-ca-cert')
      .header('content-disposition', 'attachment; filename="portal-ca.crt"')
      .send(ca.raw),
  );
  app.get(TRUST_PATH, { schema: { hide: true } }, (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page(fingerprint)),
  );
}

const page = (fingerprint: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trust this portal / เชื่อถือพอร์ทัลนี้</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 0 auto; padding: 1rem; }
  a.download { display: inline-block; padding: .75rem 1rem; background: #1d4ed8; color: #fff; border-radius: .5rem; text-decoration: none; }
  code { overflow-wrap: anywhere; font-size: .8rem; }
  section + section { border-top: 1px solid #ccc; margin-top: 1.5rem; }
</style>
</head>
<body>
<main>
<section>
<h1>Use the camera on this portal from a phone</h1>
<p>A phone opens the camera only on a secure (https) page. This portal makes its own certificate
authority; trust it once on each phone and the https address opens without a warning.</p>
<p><a class="download" href="${CERT_PATH}">Download the certificate (portal-ca.crt)</a></p>
<p><strong>Android:</strong> open the downloaded file, or go to Settings → Security → Encryption &amp;
credentials → Install a certificate → CA certificate and choose portal-ca.crt.
<strong>iPhone and iPad:</strong> open this page in Safari, tap the link and allow the download, then
Settings → General → VPN &amp; Device Management → install the profile, and Settings → General →
About → Certificate Trust Settings → turn on full trust for “Course Portal local CA”.</p>
</section>
<section lang="th">
<h1>ใช้กล้องของพอร์ทัลนี้จากโทรศัพท์</h1>
<p>โทรศัพท์จะเปิดกล้องได้เฉพาะหน้าที่ปลอดภัย (https) เท่านั้น พอร์ทัลนี้มีผู้ออกใบรับรองของตัวเอง
ให้เชื่อถือครั้งเดียวในโทรศัพท์แต่ละเครื่อง แล้วที่อยู่ https จะเปิดได้โดยไม่มีคำเตือน</p>
<p><a class="download" href="${CERT_PATH}">ดาวน์โหลดใบรับรอง (portal-ca.crt)</a></p>
<p><strong>Android:</strong> เปิดไฟล์ที่ดาวน์โหลด หรือไปที่ การตั้งค่า → ความปลอดภัย → การเข้ารหัสและข้อมูลเข้าสู่ระบบ →
ติดตั้งใบรับรอง → ใบรับรอง CA แล้วเลือก portal-ca.crt
<strong>iPhone และ iPad:</strong> เปิดหน้านี้ใน Safari แตะลิงก์และอนุญาตการดาวน์โหลด แล้วไปที่ การตั้งค่า → ทั่วไป →
VPN และการจัดการอุปกรณ์ → ติดตั้งโปรไฟล์ และ การตั้งค่า → ทั่วไป → เกี่ยวกับ → การตั้งค่าความเชื่อถือใบรับรอง →
เปิดความเชื่อถือเต็มรูปแบบให้ “Course Portal local CA”</p>
</section>
<section>
<p>SHA-256: <code>${fingerprint}</code></p>
</section>
</main>
</body>
</html>
`;

/**
 * Where this portal answers over https, for the console to offer when the camera is refused on
 * a page that is not secure: the host the browser used, with the HTTPS port. Public: it says no
 * more than the start banner.
 */
export async function secureOriginRoute(app: FastifyInstance, options: { port: number }): Promise<void> {
  app.get('/api/secure-origin', { schema: { hide: true } }, (request) => ({
    origin: `https://${request.hostname}:${options.port}`,
  }));
}
