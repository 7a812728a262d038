import { TOAST_MS, formatMoney, type Coupon } from '@store/shared';
import { Fragment, useImperativeHandle, useRef, useState, type ReactNode, type Ref } from 'react';
import { TableHead } from '#web/components/AdminList.tsx';
import { ConfirmDialog } from '#web/components/ConfirmDialog.tsx';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { TimedToast, type ToastContent } from '#web/components/TimedToast.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useCoupons, useDeleteCoupon } from './api.ts';
import { CouponFormModal } from './CouponFormModal.tsx';
import {
  dateLabel,
  deletedNotice,
  hasEnded,
  limitLabel,
  savedNotice,
  TYPE_LABELS,
  usesLabel,
  valueLabel,
} from './coupon-form.ts';

const COLUMNS = [
  'Code',
  'Type',
  'Value',
  'Min items',
  'Starts',
  'Ends',
  'Uses',
  'Per customer',
  'Active',
  { hidden: 'Actions' },
];

function Active({ on }: { on: boolean }) {
  return <span className={`badge ${on ? 'text-bg-success' : 'text-bg-secondary'}`}>{on ? 'Yes' : 'No'}</span>;
}

function Ends({ c }: { c: Coupon }) {
  return (
    <>
      {dateLabel(c.endsAt)}
      {hasEnded(c) && <span className="badge text-bg-warning ms-1">Ended</span>}
    </>
  );
}

/** A code's details on a small screen's card, as label and value. */
const facts = (c: Coupon): [string, ReactNode][] => [
  ['Type', TYPE_LABELS[c.type]],
  ['Min items', formatMoney(c.minItemsPrice)],
  ['Starts', dateLabel(c.startsAt)],
  ['Ends', <Ends c={c} />],
  ['Uses', usesLabel(c)],
  ['Per customer', limitLabel(c.perCustomerLimit)],
  ['Active', <Active on={c.isActive} />],
];

/** Shows a success toast with this text. */
type Notify = (body: string) => void;

/**
 * The page's toast, holding its own state: showing it, and hiding it after its time, re-render the toast alone,
 * never the list or a dialog open over it (a toast still showing when the admin opens the next dialog hides
 * while that dialog is open). Each message starts its own time: a second one does not hide with the first.
 */
function CouponToast({ ref }: { ref: Ref<Notify> }) {
  const [state, setState] = useState<{ id: number; toast: ToastContent | null }>({ id: 0, toast: null });
  useImperativeHandle(
    ref,
    () => (body) => setState((s) => ({ id: s.id + 1, toast: { title: 'Discount codes', body, variant: 'success' } })),
    [],
  );
  return (
    <TimedToast
      key={state.id}
      toast={state.toast}
      delay={TOAST_MS.adminAction}
      onClose={() => setState((s) => ({ ...s, toast: null }))}
    />
  );
}

/** Discount codes (admin): the list, newest first, with create, edit and delete; a toast confirms each change. */
export default function CouponListPage() {
  useDocumentTitle('Discount Codes');
  const list = useCoupons();
  const remove = useDeleteCoupon();
  // the code in the form: a stored one, or 'new'; kept while the dialog closes (its focus goes back then)
  const [editing, setEditing] = useState<Coupon | 'new' | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [toDelete, setToDelete] = useState<Coupon | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const notify = useRef<Notify>(null);
  // a code was deleted: once its dialog has closed, the focus goes to the top of the list
  const focusTop = useRef(false);

  const open = (c: Coupon | 'new') => {
    setEditing(c);
    setFormOpen(true);
  };

  const onDelete = (c: Coupon) => {
    remove.reset();
    setToDelete(c);
  };
  const confirmDelete = () => {
    const c = toDelete;
    if (!c) return;
    remove.mutate(c._id, {
      onSuccess: () => {
        setToDelete(null);
        notify.current?.(deletedNotice(c));
        // the row and its buttons are gone: the dialog cannot give the focus back to its Delete button
        focusTop.current = true;
      },
    });
  };

  const coupons = list.data ?? [];
  const actions = (c: Coupon) => (
    <div className="d-flex gap-2">
      <button
        type="button"
        className="btn btn-sm btn-outline-primary"
        onClick={() => open(c)}
        aria-label={`Edit ${c.code}`}
      >
        Edit
      </button>
      <button
        type="button"
        className="btn btn-sm btn-danger"
        onClick={() => onDelete(c)}
        aria-label={`Delete ${c.code}`}
      >
        Delete
      </button>
    </div>
  );

  return (
    <>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-3 mb-3">
        <h1 className="h3 mb-0" ref={heading} tabIndex={-1}>
          Discount Codes
        </h1>
        <button type="button" className="btn btn-primary" onClick={() => open('new')}>
          <span aria-hidden="true">+ </span>Create Discount Code
        </button>
      </div>

      {list.error ? (
        <Message variant="danger">{list.error.message || 'Failed to load discount codes'}</Message>
      ) : !list.data ? (
        <Loader label="Loading discount codes…" />
      ) : coupons.length === 0 ? (
        <Message>No discount codes yet.</Message>
      ) : (
        <>
          <div className="d-none d-lg-block table-responsive">
            <table className="table table-striped table-hover table-sm align-middle">
              <caption className="visually-hidden">Discount codes, newest first</caption>
              <TableHead columns={COLUMNS} />
              <tbody>
                {coupons.map((c) => (
                  <tr key={c._id} data-testid="coupon-row" data-id={c._id}>
                    <th scope="row" className="font-monospace text-break">
                      {c.code}
                    </th>
                    <td>{TYPE_LABELS[c.type]}</td>
                    <td className="text-nowrap">{valueLabel(c)}</td>
                    <td className="text-nowrap">{formatMoney(c.minItemsPrice)}</td>
                    <td>{dateLabel(c.startsAt)}</td>
                    <td>
                      <Ends c={c} />
                    </td>
                    <td className="text-nowrap" data-testid="coupon-uses">
                      {usesLabel(c)}
                    </td>
                    <td>{limitLabel(c.perCustomerLimit)}</td>
                    <td data-testid="coupon-active">
                      <Active on={c.isActive} />
                    </td>
                    <td>{actions(c)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul className="d-lg-none list-unstyled d-grid gap-3">
            {coupons.map((c) => (
              <li key={c._id} className="card" data-testid="coupon-card" data-id={c._id}>
                <div className="card-body">
                  <h2 className="h6 card-title mb-2 d-flex flex-wrap gap-2 align-items-center">
                    <span className="font-monospace text-break">{c.code}</span>
                    <span className="fw-normal">{valueLabel(c)}</span>
                  </h2>
                  <dl className="row small mb-3">
                    {facts(c).map(([label, value]) => (
                      <Fragment key={label}>
                        <dt className="col-5 fw-normal text-body-secondary">{label}</dt>
                        <dd className="col-7 mb-1">{value}</dd>
                      </Fragment>
                    ))}
                  </dl>
                  {actions(c)}
                </div>
              </li>
            ))}
          </ul>
        </>
      )}

      {editing !== null && (
        <CouponFormModal
          key={editing === 'new' ? 'new' : editing._id}
          coupon={editing === 'new' ? null : editing}
          show={formOpen}
          onClose={() => setFormOpen(false)}
          onExited={() => setEditing(null)}
          onSaved={(saved) => {
            setFormOpen(false);
            notify.current?.(savedNotice(editing === 'new' ? null : editing, saved));
          }}
        />
      )}
      <ConfirmDialog
        show={toDelete !== null}
        title={`Delete discount code ${toDelete?.code ?? ''}?`}
        confirmLabel="Delete code"
        busy={remove.isPending}
        error={remove.error?.message}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
        onExited={() => {
          if (focusTop.current) heading.current?.focus();
          focusTop.current = false;
        }}
      >
        <p className="mb-0">
          Shoppers can no longer use {toDelete?.code}; orders that used it keep their discount. This cannot be undone.
        </p>
      </ConfirmDialog>
      <CouponToast ref={notify} />
    </>
  );
}
