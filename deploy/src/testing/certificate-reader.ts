import { createCanvas } from '@napi-rs/canvas';
import jsQR from 'jsqr';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * Reads a certificate PDF as a person would (issue 23): Mozilla's pdf.js extracts its text and
 * draws the page, and jsQR reads the QR code off the drawing, as a phone's camera would.
 */
export async function readCertificatePdf(pdf: Uint8Array): Promise<{ pages: number; text: string; qr: string | null }> {
  const doc = await getDocument({ data: new Uint8Array(pdf) }).promise;
  try {
    const page = await doc.getPage(1);
    const content = await page.getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str : '')).join('\n');
    const viewport = page.getViewport({ scale: 2 });
    const canvas = createCanvas(viewport.width, viewport.height);
    const context = canvas.getContext('2d');
    // pdf.js draws on @napi-rs/canvas in Node; its types are the DOM's.
    await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
    const image = context.getImageData(0, 0, viewport.width, viewport.height);
    const qr = jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? null;
    return { pages: doc.numPages, text, qr };
  } finally {
    await doc.destroy();
  }
}
