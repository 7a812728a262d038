import { AUTH_MESSAGES, UPLOAD_MESSAGES, type Product } from '@store/shared';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { setTokenFailedHandler } from '#web/lib/api.ts';
import { galleryAfterDelete, hasImageSignature, perFileProgress, pickUploadFiles, uploadImages } from './upload.ts';

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const png = (name: string, extra = 10) => new File([new Uint8Array([...PNG_HEAD, ...new Array(extra).fill(0)])], name);
const jpg = (name: string) => new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])], name);

describe('upload file checks (JPG or PNG by their bytes, at most 5 MB)', () => {
  it('knows JPG and PNG by their first bytes', () => {
    expect(hasImageSignature(new Uint8Array(PNG_HEAD))).toBe(true);
    expect(hasImageSignature(new Uint8Array([0xff, 0xd8, 0xff, 0xdb]))).toBe(true);
    expect(hasImageSignature(new TextEncoder().encode('GIF89a'))).toBe(false);
    expect(hasImageSignature(new Uint8Array([]))).toBe(false);
  });

  it('skips other bytes, empty and oversize files with the skipped-files message', async () => {
    const fake = new File(['plain text'], 'fake.png', { type: 'image/png' });
    const empty = new File([], 'empty.png');
    const big = new File([new Uint8Array(PNG_HEAD), new Uint8Array(5 * 1024 * 1024)], 'big.png');
    const r = await pickUploadFiles([png('a.png'), fake, jpg('b.jpg'), empty, big]);
    expect(r.valid.map((f) => f.name)).toEqual(['a.png', 'b.jpg']);
    expect(r.notice).toBe('Only JPG/PNG up to 5MB per file. Skipped 3 invalid file(s).');
    expect(r.error).toBeNull();
  });

  it('says so when no file is left', async () => {
    const r = await pickUploadFiles([new File(['x'], 'x.txt')]);
    expect(r.valid).toEqual([]);
    expect(r.error).toBe('Please choose at least one valid file to upload.');
  });

  it('accepts exactly 5 MB', async () => {
    const r = await pickUploadFiles([png('edge.png', 5 * 1024 * 1024 - PNG_HEAD.length)]);
    expect(r.valid).toHaveLength(1);
  });
});

describe('perFileProgress', () => {
  it('maps the bytes sent onto the files in order', () => {
    expect(perFileProgress([100, 300], 0, 420)).toEqual([0, 0]);
    expect(perFileProgress([100, 300], 105, 420)).toEqual([100, 0]);
    expect(perFileProgress([100, 300], 210, 420)).toEqual([100, 33]);
    expect(perFileProgress([100, 300], 420, 420)).toEqual([100, 100]);
  });

  it('shows nothing until the total is known', () => {
    expect(perFileProgress([10], 5, 0)).toEqual([0]);
  });
});

describe('galleryAfterDelete', () => {
  const product = {
    image: '/uploads/f/a.webp',
    imageFolderName: 'f',
    imageB: [{ _id: '1', src: '/uploads/f/a.webp' }, { src: '/uploads/f/b.webp' }],
    colorsVariants: [
      { _id: 'v1', name: 'Red', src: '/uploads/f/a.webp', price: 12 },
      { _id: 'v2', name: 'Blue', src: '/uploads/f/b.webp', price: null },
    ],
  } as unknown as Product;

  it('drops deleted images from the gallery, the main image and the variants', () => {
    expect(galleryAfterDelete(product, ['/uploads/f/a.webp'])).toEqual({
      image: '',
      imageFolderName: 'f',
      imageB: [{ src: '/uploads/f/b.webp' }],
      colorsVariants: [
        { _id: 'v1', name: 'Red', src: '', price: 12 },
        { _id: 'v2', name: 'Blue', src: '/uploads/f/b.webp', price: null },
      ],
    });
  });

  it('keeps everything when nothing it uses was deleted', () => {
    const r = galleryAfterDelete(product, ['/uploads/f/c.webp']);
    expect(r.image).toBe(product.image);
    expect(r.imageB).toHaveLength(2);
  });
});

/** Just enough of XMLHttpRequest to answer one upload. */
class FakeXhr {
  static last: FakeXhr;
  upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  responseText = '';
  constructor() {
    FakeXhr.last = this;
  }
  open() {}
  setRequestHeader() {}
  send() {}
  abort() {
    this.onabort?.();
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = body === undefined ? '' : JSON.stringify(body);
    this.onload?.();
  }
}

describe('uploadImages answers', () => {
  const onTokenFailed = vi.fn();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  setTokenFailedHandler(onTokenFailed);
  afterEach(() => onTokenFailed.mockClear());
  afterAll(() => {
    vi.unstubAllGlobals();
    setTokenFailedHandler(() => undefined);
  });
  const upload = (token?: string) => uploadImages('folder', [png('a.png')], token, () => undefined);

  it("signs out when the admin's token is refused, as every other call does", async () => {
    const { done } = upload('expired');
    FakeXhr.last.answer(401, { message: AUTH_MESSAGES.tokenFailed, code: 'TOKEN_FAILED' });
    expect(await done).toEqual({ kind: 'failed', message: AUTH_MESSAGES.tokenFailed });
    expect(onTokenFailed).toHaveBeenCalledTimes(1);
  });

  it("shows the server's reason, or the upload message when it gave none", async () => {
    const refused = upload('admin');
    FakeXhr.last.answer(400, { message: 'Invalid folder name' });
    expect(await refused.done).toEqual({ kind: 'failed', message: 'Invalid folder name' });
    const broken = upload('admin');
    FakeXhr.last.answer(502, undefined);
    expect(await broken.done).toEqual({ kind: 'failed', message: UPLOAD_MESSAGES.failed });
    expect(onTokenFailed).not.toHaveBeenCalled();
  });
});
