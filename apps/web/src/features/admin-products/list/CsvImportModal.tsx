import { CSV_IMPORT_MAX_BYTES, type ImportError, type ImportProgress, type ImportResult } from '@store/shared';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { currentToken } from '#web/lib/auth.ts';
import { focusFirstField } from '#web/lib/dialog-focus.ts';
import {
  CSV_MESSAGES,
  csvFileProblem,
  importProgressView,
  importResultText,
  invalidRowsHeading,
  startImport,
  STAGE_TEXT,
  useRefreshAfterImport,
  type ImportHandle,
} from './csv-api.ts';

type View =
  | { step: 'choose'; file: File | null; problem: string | null; notice: string | null }
  | { step: 'running'; percent: number; job: ImportProgress | null }
  | { step: 'done'; result: ImportResult }
  | { step: 'invalid'; errors: ImportError['errors'] }
  | { step: 'failed'; message: string };

const CHOOSE = { step: 'choose', file: null, problem: null, notice: null } as const satisfies View;
/** A refusal lists at most this many problems (the heading still counts every row). */
const SHOWN_ERRORS = 500;
const MAX_MB = CSV_IMPORT_MAX_BYTES / 1024 / 1024;

/** What the status line says: one line a stage or an outcome, never one a percent. */
function announcement(view: View): string {
  switch (view.step) {
    case 'choose':
      return view.problem ?? view.notice ?? '';
    case 'running':
      return STAGE_TEXT[importProgressView(view.percent, view.job).stage];
    case 'done':
      return `Import done: ${importResultText(view.result)}.`;
    case 'invalid':
      return `${invalidRowsHeading(view.errors)}.`;
    case 'failed':
      return view.message;
  }
}

/** The rows a refused import names, with what is wrong in each: the table scrolls, the modal does not. */
function RowErrors({ errors }: { errors: ImportError['errors'] }) {
  const shown = errors.slice(0, SHOWN_ERRORS);
  return (
    <>
      <h3 id="csv-import-errors" className="h6 text-danger-emphasis">
        {invalidRowsHeading(errors)}
      </h3>
      <div
        className="table-responsive border rounded"
        style={{ maxHeight: '45vh', overflowY: 'auto' }}
        role="region"
        aria-labelledby="csv-import-errors"
        // a region that scrolls is reached by keyboard
        tabIndex={0}
      >
        <table className="table table-sm table-striped mb-0" data-testid="csv-import-errors">
          <thead className="sticky-top">
            <tr>
              <th scope="col" className="text-nowrap">
                Row
              </th>
              <th scope="col">Problem</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((e, i) => (
              <tr key={`${e.row}-${i}`}>
                <td className="text-nowrap">{e.row}</td>
                <td className="text-break">{e.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {errors.length > shown.length && (
        <p className="small text-body-secondary mt-2 mb-0">
          The first {shown.length} of {errors.length} problems are shown.
        </p>
      )}
    </>
  );
}

/**
 * 'Import CSV': a CSV of the export's columns is checked here (type, at most 10 MB), then sent with its upload
 * progress and the server's progress (checking rows, writing). The server writes nothing unless every row is
 * valid: then the counts, else the rows to fix.
 */
export function CsvImportModal({ show, onHide }: { show: boolean; onHide: () => void }) {
  const [view, setView] = useState<View>(CHOOSE);
  const handle = useRef<ImportHandle | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const progress = useRef<HTMLDivElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const refresh = useRefreshAfterImport();

  // leaving the page stops an upload in flight
  useEffect(() => () => handle.current?.cancel(), []);

  // focus follows the step: the file input, the progress while it runs, then the next thing to do (the
  // outcome is announced); on opening, focus goes to the file input once the dialog is in (onEntered)
  useEffect(() => {
    if (view.step === 'choose') input.current?.focus();
    else if (view.step === 'running') progress.current?.focus();
    else next.current?.focus();
  }, [view.step]);

  const running = view.step === 'running';
  const uploading = running && view.percent < 100 && !view.job;

  const onFile = (file: File | null) =>
    setView({ step: 'choose', file, problem: file ? csvFileProblem(file) : null, notice: null });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (view.step !== 'choose' || !view.file || view.problem) return;
    setView({ step: 'running', percent: 0, job: null });
    const h = startImport(view.file, currentToken(), (p) =>
      setView((v) => {
        if (v.step !== 'running') return v;
        return 'job' in p ? { ...v, job: p.job } : { ...v, percent: Math.max(v.percent, p.percent) };
      }),
    );
    handle.current = h;
    void h.done.then((outcome) => {
      handle.current = null;
      if (outcome.kind === 'done') void refresh();
      setView(
        outcome.kind === 'canceled'
          ? { ...CHOOSE, notice: CSV_MESSAGES.canceled }
          : outcome.kind === 'done'
            ? { step: 'done', result: outcome.result }
            : outcome.kind === 'invalid'
              ? { step: 'invalid', errors: outcome.errors }
              : { step: 'failed', message: outcome.message },
      );
    });
  };

  // while the server works the dialog stays: closing could not stop it
  const hide = () => {
    if (uploading) handle.current?.cancel();
    else if (!running) onHide();
  };

  const bar = view.step === 'running' ? importProgressView(view.percent, view.job) : null;

  return (
    <Modal
      show={show}
      onHide={hide}
      backdrop={running ? 'static' : true}
      centered
      aria-labelledby="csv-import-title"
      onEntered={(dialog) => focusFirstField(dialog, () => input.current?.focus())}
      onExited={() => setView(CHOOSE)}
    >
      <Modal.Header closeButton={!running} closeLabel="Close">
        <Modal.Title id="csv-import-title" as="h2" className="h5">
          Import products
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {view.step === 'choose' && (
          <form id="csv-import-form" onSubmit={onSubmit} noValidate>
            <label htmlFor="csv-import-file" className="form-label">
              CSV file
            </label>
            <input
              ref={input}
              id="csv-import-file"
              type="file"
              accept=".csv,text/csv"
              className={`form-control${view.problem ? ' is-invalid' : ''}`}
              onChange={(e) => onFile(e.target.files?.[0] ?? null)}
              aria-invalid={view.problem ? true : undefined}
              aria-describedby={`csv-import-hint${view.problem ? ' csv-import-problem' : ''}`}
            />
            {view.problem && (
              <div id="csv-import-problem" className="invalid-feedback">
                {view.problem}
              </div>
            )}
            <div id="csv-import-hint" className="form-text">
              The columns of Export CSV, up to {MAX_MB} MB. Every row is checked first: if one is not valid, nothing is
              imported.
            </div>
            {/* announced by the status line below */}
            {view.notice && <div className="alert alert-warning mt-3 mb-0">{view.notice}</div>}
          </form>
        )}

        {bar && (
          <div ref={progress} tabIndex={-1} className="py-2" data-testid="csv-import-progress">
            <div className="d-flex justify-content-between small mb-1">
              <span id="csv-import-progress-label">{bar.label}</span>
            </div>
            <ProgressBar style={{ height: '1.25rem' }}>
              <ProgressBar
                now={bar.now}
                animated={bar.animated}
                aria-labelledby="csv-import-progress-label"
                aria-valuetext={bar.label}
              />
            </ProgressBar>
          </div>
        )}

        {view.step === 'done' && (
          <div className="alert alert-success mb-0" data-testid="csv-import-result">
            {importResultText(view.result)}.
          </div>
        )}
        {view.step === 'invalid' && <RowErrors errors={view.errors} />}
        {view.step === 'failed' && (
          <div className="alert alert-danger mb-0" data-testid="csv-import-result">
            {view.message}
          </div>
        )}

        <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
          {show ? announcement(view) : ''}
        </div>
      </Modal.Body>
      <Modal.Footer>
        {view.step === 'choose' && (
          <>
            <Button variant="secondary" onClick={onHide}>
              Close
            </Button>
            <Button type="submit" form="csv-import-form" disabled={!view.file || view.problem !== null}>
              Import
            </Button>
          </>
        )}
        {running && uploading && (
          <Button variant="outline-danger" onClick={() => handle.current?.cancel()}>
            Cancel
          </Button>
        )}
        {running && !uploading && (
          <span className="small text-body-secondary">The store is importing the file: this can take a moment.</span>
        )}
        {(view.step === 'invalid' || view.step === 'failed') && (
          <Button ref={next} variant="outline-primary" onClick={() => setView(CHOOSE)}>
            Choose another file
          </Button>
        )}
        {!running && view.step !== 'choose' && (
          <Button
            ref={view.step === 'done' ? next : undefined}
            variant={view.step === 'done' ? 'primary' : 'secondary'}
            onClick={onHide}
          >
            Close
          </Button>
        )}
      </Modal.Footer>
    </Modal>
  );
}
