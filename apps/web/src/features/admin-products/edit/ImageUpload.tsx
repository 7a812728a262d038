import { UPLOAD_MESSAGES, type Product } from '@store/shared';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { currentToken } from '#web/lib/auth.ts';
import { isFolderName, useRefreshGallery } from './api.ts';
import { pickUploadFiles, uploadImages, type UploadHandle } from './upload.ts';
import { UploadStatusModal, type UploadState } from './UploadStatusModal.tsx';

/**
 * Multi-file upload into the gallery folder: files are checked here first (JPG/PNG up
 * to 5 MB), then sent in one request whose progress is shown per file in 'Upload Status'. The server
 * attaches them to the product (gallery list in upload order, first as main image if there is none);
 * `onAttached` gets the stored files and the product as it is now.
 */
export function ImageUpload({
  folder,
  productId,
  onOpenGallery,
  onAttached,
}: {
  folder: string;
  productId: string;
  onOpenGallery: () => void;
  onAttached: (srcs: string[], product: Product | undefined) => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [state, setState] = useState<UploadState | null>(null);
  const handle = useRef<UploadHandle | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const refresh = useRefreshGallery();

  // leaving the page stops an upload in flight
  useEffect(() => () => handle.current?.cancel(), []);

  const onFiles = async (e: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(e.target.files ?? []);
    e.target.value = '';
    setError(null);
    setNotice(null);
    if (files.length === 0) return;
    const target = folder.trim();
    if (!target) {
      setError(UPLOAD_MESSAGES.folderRequired);
      return;
    }
    if (!isFolderName(target)) {
      setError(UPLOAD_MESSAGES.folderInvalid);
      return;
    }
    const picked = await pickUploadFiles(files);
    setNotice(picked.notice);
    if (picked.error) {
      setError(picked.error);
      return;
    }
    setState({
      rows: picked.valid.map((f) => ({ name: f.name, size: f.size, percent: 0 })),
      phase: 'uploading',
      message: null,
      notice: picked.notice,
    });
    const h = uploadImages(
      target,
      picked.valid,
      currentToken(),
      (percents) =>
        setState((s) => s && { ...s, rows: s.rows.map((r, i) => ({ ...r, percent: percents[i] ?? r.percent })) }),
      productId,
    );
    handle.current = h;
    void h.done.then((outcome) => {
      handle.current = null;
      void refresh(target);
      if (outcome.kind === 'done' && outcome.response.files.length > 0)
        onAttached(
          outcome.response.files.map((f) => f.src),
          outcome.response.product,
        );
      setState((s) => {
        if (!s) return s;
        if (outcome.kind !== 'done') return { ...s, phase: outcome.kind, message: outcome.message };
        const n = outcome.response.files.length;
        return {
          ...s,
          phase: 'done',
          message: `Uploaded ${n} image(s) to ${target}. Added to the gallery list.`,
          notice: [s.notice, outcome.response.message].filter(Boolean).join(' ') || null,
        };
      });
    });
  };

  // closing returns to the file input; 'Open Gallery' leaves focus to the gallery modal
  const focusInput = useRef(true);
  const close = () => {
    focusInput.current = true;
    setState(null);
  };

  return (
    <div className="mb-3">
      <label htmlFor="product-upload" className="form-label">
        Upload Images
      </label>
      <input
        ref={input}
        id="product-upload"
        type="file"
        className={`form-control${error ? ' is-invalid' : ''}`}
        accept=".jpg,.jpeg,.png,image/jpeg,image/png"
        multiple
        onChange={(e) => void onFiles(e)}
        aria-describedby="product-upload-hint"
        aria-invalid={error ? true : undefined}
      />
      <div id="product-upload-hint" className="form-text">
        JPG or PNG, up to 5 MB each. Choosing files uploads them to the gallery folder and adds them to the gallery list
        (the first becomes the main image if there is none).
      </div>
      <div aria-live="polite">
        {error && (
          <div className="alert alert-danger py-2 mt-2 mb-0" role="alert">
            {error}
          </div>
        )}
        {notice && !state && <div className="alert alert-warning py-2 mt-2 mb-0">{notice}</div>}
      </div>
      <UploadStatusModal
        state={state}
        onCancel={() => handle.current?.cancel()}
        onClose={close}
        onBrowse={() => {
          focusInput.current = false;
          setState(null);
          onOpenGallery();
        }}
        onExited={() => {
          if (focusInput.current) input.current?.focus();
        }}
      />
    </div>
  );
}
