import { randomBytes } from 'node:crypto';
import sharp from 'sharp';

export interface Part {
  field: string;
  data: Buffer | string;
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body as a browser's FormData sends it, for app.inject. */
export function multipart(parts: Part[]) {
  const boundary = `----storetest${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.field}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    const type = p.filename !== undefined ? `Content-Type: ${p.contentType ?? 'application/octet-stream'}\r\n` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A real image made with sharp (a colour makes each one different). */
export function testImage(format: 'png' | 'jpeg', color = { r: 200, g: 80, b: 40 }, width = 64, height = 48) {
  const img = sharp({ create: { width, height, channels: 3, background: color } });
  return (format === 'png' ? img.png() : img.jpeg()).toBuffer();
}
