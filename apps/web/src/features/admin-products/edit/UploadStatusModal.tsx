import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

export interface UploadRow {
  name: string;
  size: number;
  percent: number;
}

export type UploadPhase = 'uploading' | 'done' | 'canceled' | 'failed';

export interface UploadState {
  rows: UploadRow[];
  phase: UploadPhase;
  /** The outcome (danger when canceled or failed), and the server's note on files it skipped. */
  message: string | null;
  notice: string | null;
}

const sizeLabel = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

function rowStatus(phase: UploadPhase, percent: number): string {
  if (phase === 'done') return 'Done';
  if (phase === 'canceled') return percent >= 100 ? 'Sent' : 'Canceled';
  if (phase === 'failed') return 'Failed';
  return percent >= 100 ? 'Processing…' : `${percent}%`;
}

/** 'Upload Status': one progress bar per file, Cancel while it runs, the outcome when it ends. */
export function UploadStatusModal({
  state,
  onCancel,
  onClose,
  onBrowse,
  onExited,
}: {
  state: UploadState | null;
  onCancel: () => void;
  onClose: () => void;
  onBrowse: () => void;
  /** Once it has gone: where focus should go (the file input, or the gallery that opens). */
  onExited: () => void;
}) {
  const uploading = state?.phase === 'uploading';
  return (
    <Modal
      show={state !== null}
      onHide={uploading ? onCancel : onClose}
      backdrop="static"
      className="product-edit-modal"
      centered
      restoreFocus={false}
      onExited={onExited}
      aria-labelledby="upload-status-title"
    >
      <Modal.Header closeButton={!uploading} closeLabel="Close">
        <Modal.Title id="upload-status-title" as="h2" className="h5">
          Upload Status
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <ul className="list-unstyled mb-0" aria-label="Files">
          {state?.rows.map((row, i) => {
            const status = rowStatus(state.phase, row.percent);
            return (
              <li key={`${row.name}-${i}`} className="mb-3" data-testid="upload-row">
                <div className="d-flex justify-content-between gap-2 small">
                  <span className="text-truncate" title={row.name}>
                    {row.name} <span className="text-body-secondary">({sizeLabel(row.size)})</span>
                  </span>
                  <span data-testid="upload-row-status">{status}</span>
                </div>
                <div
                  className="progress"
                  role="progressbar"
                  aria-label={`Upload of ${row.name}`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={row.percent}
                  aria-valuetext={status}
                >
                  <div
                    className={`progress-bar${state.phase === 'failed' || state.phase === 'canceled' ? ' bg-danger' : state.phase === 'done' ? ' bg-success' : ''}`}
                    style={{ width: `${row.percent}%` }}
                  />
                </div>
              </li>
            );
          })}
        </ul>
        <div aria-live="polite">
          {state?.message && (
            <div className={`alert ${state.phase === 'done' ? 'alert-success' : 'alert-danger'} mt-3 mb-0`}>
              {state.message}
            </div>
          )}
          {state?.notice && <div className="alert alert-warning mt-3 mb-0">{state.notice}</div>}
        </div>
      </Modal.Body>
      <Modal.Footer>
        {uploading ? (
          <Button variant="outline-danger" onClick={onCancel}>
            Cancel
          </Button>
        ) : (
          <>
            {state?.phase === 'done' && (
              <Button variant="outline-primary" onClick={onBrowse}>
                Open Gallery
              </Button>
            )}
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
          </>
        )}
      </Modal.Footer>
    </Modal>
  );
}
