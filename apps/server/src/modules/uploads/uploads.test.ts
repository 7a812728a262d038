import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '#test/accounts.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { multipart, testImage, type Part } from '#test/multipart.ts';

let t: TestContext;
let admin: { headers: Record<string, string> };
let shopper: { headers: Record<string, string> };
let png: Buffer;
let jpeg: Buffer;
const uploads = () => path.join(t.config.dataDir, 'uploads');

function upload(folder: string, parts: Part[], headers: Record<string, string> = admin.headers) {
  const body = multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: `/api/upload/${folder}`,
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}
const list = (folder: string, headers = admin.headers) =>
  t.app.inject({ method: 'GET', url: `/api/upload/list/${folder}`, headers });
const remove = (folder: string, srcs: string[], headers = admin.headers) =>
  t.app.inject({ method: 'DELETE', url: `/api/upload/${folder}`, headers, payload: { srcs } });
const file = (data: Buffer | string, filename: string, contentType = 'image/png'): Part => ({
  field: 'files',
  data,
  filename,
  contentType,
});

describe('gallery uploads', () => {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAccount(t, { isAdmin: true });
    shopper = await createAccount(t);
    png = await testImage('png');
    jpeg = await testImage('jpeg', { r: 10, g: 120, b: 200 });
  });
  afterAll(async () => t?.close());

  it('is for admins only, and a refused upload writes nothing', async () => {
    for (const headers of [{}, shopper.headers]) {
      const status = Object.keys(headers).length ? 403 : 401;
      expect((await upload('gal', [file(png, 'a.png')], headers)).statusCode).toBe(status);
      expect((await list('gal', headers)).statusCode).toBe(status);
      expect((await remove('gal', ['/uploads/gal/a.webp'], headers)).statusCode).toBe(status);
    }
    expect(existsSync(path.join(uploads(), 'gal'))).toBe(false);
  });

  it('stores real JPG and PNG files once each, as WebP at several widths', async () => {
    const res = await upload('lamp-1', [file(png, 'Side View.PNG'), file(jpeg, 'front.jpg', 'image/jpeg')]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ files: [{ src: expect.any(String) }, { src: expect.any(String) }], skipped: 0 });
    const [side, front] = body.files.map((f: { src: string }) => f.src);
    expect(side).toMatch(/^\/uploads\/lamp-1\/side-view-[0-9a-f]{12}\.webp$/);
    expect(front).toMatch(/^\/uploads\/lamp-1\/front-[0-9a-f]{12}\.webp$/);
    const names = readdirSync(path.join(uploads(), 'lamp-1')).sort();
    expect(names).toHaveLength(6); // two images, three widths each
    expect(names.every((n) => n.endsWith('.webp'))).toBe(true);
    const meta = await sharp(path.join(uploads(), side.slice('/uploads/'.length))).metadata();
    expect(meta.format).toBe('webp');
    const served = await t.app.inject({ method: 'GET', url: side });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    // the same picture again is the same image, not a copy
    const again = (await upload('lamp-1', [file(png, 'side view.png')])).json();
    expect(again.files).toEqual([{ src: side }]);
    expect((await list('lamp-1')).json()).toEqual([{ src: side }, { src: front }]);
  });

  it('checks the bytes, not the name: a text file called .png is skipped', async () => {
    const fake = file('just some text, not an image', 'photo.png');
    const only = await upload('checks', [fake]);
    expect(only.statusCode).toBe(400);
    expect(only.json()).toEqual({ message: 'Please choose at least one valid file to upload.', code: 'BAD_REQUEST' });
    const mixed = await upload('checks', [
      fake,
      file(png, 'real.png'),
      { field: 'other', data: png, filename: 'x.png' },
    ]);
    expect(mixed.statusCode).toBe(200);
    expect(mixed.json()).toMatchObject({
      skipped: 2,
      message: 'Only JPG/PNG up to 5MB per file. Skipped 2 invalid file(s).',
    });
    expect(mixed.json().files).toHaveLength(1);
    // PNG's first bytes followed by garbage: the encoder refuses it, still a skip and not a 500
    const broken = await upload('checks', [
      file(Buffer.concat([png.subarray(0, 16), Buffer.alloc(500, 7)]), 'broken.png'),
    ]);
    expect(broken.statusCode).toBe(400);
    const gif = await upload('checks', [
      file(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'), 'x.gif', 'image/gif'),
    ]);
    expect(gif.json().message).toBe('Please choose at least one valid file to upload.');
  });

  it('counts a file over 5 MB as invalid instead of failing the upload', async () => {
    const big = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 + 10, 1)]);
    const alone = await upload('big', [file(big, 'huge.png')]);
    expect(alone.statusCode).toBe(400);
    expect(alone.json().message).toBe('Please choose at least one valid file to upload.');
    const withGood = await upload('big', [file(big, 'huge.png'), file(jpeg, 'ok.jpg', 'image/jpeg')]);
    expect(withGood.statusCode).toBe(200);
    expect(withGood.json()).toMatchObject({
      skipped: 1,
      message: 'Only JPG/PNG up to 5MB per file. Skipped 1 invalid file(s).',
    });
  });

  it('refuses more than 20 files at once and keeps none of them', async () => {
    const parts = await Promise.all(
      Array.from({ length: 21 }, async (_, i) =>
        file(await testImage('png', { r: i * 10, g: 0, b: 0 }, 8, 8), `f${i}.png`),
      ),
    );
    const res = await upload('many', parts);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'At most 20 files per upload.', code: 'PAYLOAD_TOO_LARGE' });
    expect((await list('many')).json()).toEqual([]);
  });

  it('refuses folder names that could leave the uploads directory', async () => {
    const before = readdirSync(t.config.dataDir).sort();
    for (const folder of [
      '..',
      '%2e%2e',
      '%2E%2E',
      '..%2F..%2Fetc',
      '%2Fetc',
      '/etc',
      'a/b',
      'a%2Fb',
      '.hidden',
      'a%20b',
      'x'.repeat(65),
      '%00',
    ]) {
      for (const res of [
        await upload(folder, [file(png, 'a.png')]),
        await list(folder),
        await remove(folder, ['/uploads/x/a.webp']),
      ]) {
        expect([400, 404], folder).toContain(res.statusCode);
        expect(res.json().message, folder).toBeTruthy();
      }
    }
    expect((await list('%20')).json()).toEqual({
      message: 'Please set an Image Gallery Folder Name first.',
      code: 'BAD_REQUEST',
    });
    expect(readdirSync(t.config.dataDir).sort()).toEqual(before);
    expect(existsSync(path.join(t.config.dataDir, 'etc'))).toBe(false);
  });

  it('lists only the main image of each and deletes every width in bulk', async () => {
    const a = await testImage('png', { r: 1, g: 2, b: 3 });
    const b = await testImage('png', { r: 4, g: 5, b: 6 });
    const c = await testImage('jpeg', { r: 7, g: 8, b: 9 });
    const srcs = (await upload('bulk', [file(a, 'a.png'), file(b, 'b.png'), file(c, 'c.jpg', 'image/jpeg')]))
      .json()
      .files.map((f: { src: string }) => f.src);
    expect((await list('bulk')).json()).toHaveLength(3);
    writeFileSync(path.join(uploads(), 'keep.webp'), 'sentinel');
    const res = await remove('bulk', [srcs[0], srcs[2], '/uploads/other/x.webp', '/uploads/bulk/../keep.webp']);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ deleted: [srcs[0], srcs[2]], message: 'Deleted 2 image(s).' });
    expect((await list('bulk')).json()).toEqual([{ src: srcs[1] }]);
    expect(readdirSync(path.join(uploads(), 'bulk'))).toHaveLength(3); // the three widths of the one left
    expect(existsSync(path.join(uploads(), 'keep.webp'))).toBe(true);
    expect((await remove('bulk', [])).json()).toEqual({
      message: 'Please choose at least one image to delete.',
      code: 'BAD_REQUEST',
    });
    expect((await list('never-used')).json()).toEqual([]);
  });

  it('answers 400 to an upload that is not multipart', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/upload/gal',
      headers: admin.headers,
      payload: { files: [] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Send the images as multipart/form-data in the field "files".');
  });
});
