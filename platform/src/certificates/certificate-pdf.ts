import { createRequire } from 'node:module';
import QRCode from 'qrcode';

const require = createRequire(import.meta.url);
/** Sarabun (SIL Open Font License), the Thai government's standard face, with Latin in the same design. */
const SARABUN = require.resolve('@expo-google-fonts/sarabun/400Regular/Sarabun_400Regular.ttf');
const SARABUN_BOLD = require.resolve('@expo-google-fonts/sarabun/700Bold/Sarabun_700Bold.ttf');

/** What a certificate of completion says (issue 23). */
export interface CertificateContent {
  certificateId: string;
  memberName: string;
  courseTopic: string;
  issuer: string;
  attendedRounds: number;
  heldRounds: number;
  /** Hours of the rounds the member attended. */
  hours: number;
  issuedAt: string;
  /** The public page that says whether the certificate is valid (the QR code opens it). */
  verifyUrl: string;
}

const BANGKOK = 'Asia/Bangkok';
/** 25 พฤศจิกายน พ.ศ. 2569: the Buddhist era, as Thai documents are dated. */
export const thaiDate = (iso: string) =>
  new Intl.DateTimeFormat('th-TH-u-ca-buddhist', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    era: 'short',
    timeZone: BANGKOK,
  }).format(new Date(iso));
export const englishDate = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: 'long', day: 'numeric', timeZone: BANGKOK }).format(
    new Date(iso),
  );
export const hoursText = (hours: number) => String(Math.round(hours * 10) / 10);

/**
 * Text as a PDF can show it: no control characters or direction overrides, no lone surrogates,
 * and short enough for its line (what the portal accepted is kept whole in the log).
 */
export function printable(text: string, max = 120): string {
  const clean = text
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replace(/[\p{Cc}\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/gu, '')
    .trim();
  const chars = Array.from(clean);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : clean;
}

/**
 * The certificate as one A4 landscape page, in Thai and then English, with its QR code. pdfkit is
 * loaded for the first certificate, not at every start (210 ms of the portal's main thread;
 * docs/performance.md, machine AL).
 */
export async function certificatePdf(content: CertificateContent): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 48,
    info: {
      Title: `Certificate ${content.certificateId}`,
      Author: printable(content.issuer),
      Subject: printable(content.courseTopic),
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', SARABUN);
  doc.registerFont('bold', SARABUN_BOLD);
  const width = doc.page.width - 96;
  const name = printable(content.memberName);
  const topic = printable(content.courseTopic);
  const issuer = printable(content.issuer);
  const hours = hoursText(content.hours);
  const line = (font: string, size: number, text: string, gap = 4) => {
    doc.font(font).fontSize(size).text(text, 48, undefined, { width, align: 'center', lineBreak: true });
    doc.moveDown(gap / size);
  };

  doc
    .rect(24, 24, doc.page.width - 48, doc.page.height - 48)
    .lineWidth(2)
    .stroke('#1f4e79');
  doc.y = 60;
  line('bold', 26, 'ประกาศนียบัตร');
  line('regular', 14, 'ขอมอบไว้เพื่อแสดงว่า');
  line('bold', 22, name);
  line('regular', 14, `ได้ผ่านการอบรมหลักสูตร “${topic}”`);
  line('regular', 13, `เข้าร่วม ${content.attendedRounds} จาก ${content.heldRounds} รอบ รวม ${hours} ชั่วโมง`);
  line('regular', 13, `ออกโดย ${issuer} เมื่อวันที่ ${thaiDate(content.issuedAt)}`, 14);
  line('bold', 22, 'Certificate of Completion');
  line('regular', 13, 'This certifies that');
  line('bold', 18, name);
  line('regular', 13, `has completed the course “${topic}”,`);
  line('regular', 12, `attending ${content.attendedRounds} of ${content.heldRounds} rounds, ${hours} hours in all.`);
  line('regular', 12, `Issued by ${issuer} on ${englishDate(content.issuedAt)}.`);

  // The QR code as vector squares: sharp at any zoom and on paper.
  const qr = QRCode.create(content.verifyUrl, { errorCorrectionLevel: 'M' });
  const size = 110;
  const cell = size / (qr.modules.size + 8);
  const left = doc.page.width - 48 - size;
  const top = doc.page.height - 48 - size;
  doc.rect(left, top, size, size).fill('#ffffff');
  for (let row = 0; row < qr.modules.size; row += 1) {
    for (let col = 0; col < qr.modules.size; col += 1) {
      if (qr.modules.get(row, col)) doc.rect(left + (col + 4) * cell, top + (row + 4) * cell, cell, cell);
    }
  }
  doc.fill('#000000');
  doc
    .font('regular')
    .fontSize(9)
    .fillColor('#333333')
    .text(`ตรวจสอบ / Verify: ${content.verifyUrl}`, 48, doc.page.height - 80, {
      width: width - size - 16,
      lineBreak: true,
    })
    .text(`เลขที่ / No. ${content.certificateId}`, 48, undefined, { width: width - size - 16 });
  doc.end();
  return done;
}
