import { COUPON_TYPES, type Coupon, type CouponInput } from '@store/shared';
import { useForm, useWatch } from 'react-hook-form';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { AMOUNT } from '#web/components/AdminList.tsx';
import { Field } from '#web/components/Field.tsx';
import { Message } from '#web/components/Message.tsx';
import { hasErrorCode } from '#web/lib/api.ts';
import { focusFirstField } from '#web/lib/dialog-focus.ts';
import { useSaveCoupon } from './api.ts';
import { couponResolver, EMPTY_COUPON, toFormValues, TYPE_LABELS, type CouponFormValues } from './coupon-form.ts';

const LIMIT = { type: 'number', min: 1, step: 1, inputMode: 'numeric' } as const;

/**
 * Create (no `coupon`) or edit a discount code. The form checks the shared rules as the admin types;
 * the server's refusals (a code already taken) show by the field or above the buttons.
 */
export function CouponFormModal({
  coupon,
  show,
  onClose,
  onExited,
  onSaved,
}: {
  coupon: Coupon | null;
  show: boolean;
  onClose: () => void;
  /** After the closing animation: the page may unmount the dialog then. */
  onExited: () => void;
  onSaved: (saved: Coupon) => void;
}) {
  const save = useSaveCoupon();
  const {
    register,
    handleSubmit,
    control,
    setError,
    setFocus,
    formState: { errors },
  } = useForm<CouponFormValues, unknown, CouponInput>({
    resolver: couponResolver,
    mode: 'onTouched',
    defaultValues: coupon ? toFormValues(coupon) : EMPTY_COUPON,
  });
  const type = useWatch({ control, name: 'type' });
  const title = coupon ? 'Edit Discount Code' : 'Create Discount Code';

  const onSubmit = handleSubmit((body) =>
    save.mutate(
      { id: coupon?._id ?? null, body },
      {
        onSuccess: onSaved,
        onError: (err) => {
          if (hasErrorCode(err, 'DUPLICATE')) {
            setError('code', { type: 'server', message: err.message }, { shouldFocus: true });
          }
        },
      },
    ),
  );
  const serverError = save.error && !hasErrorCode(save.error, 'DUPLICATE') ? save.error.message : null;

  return (
    <Modal
      show={show}
      onHide={onClose}
      onEntered={(dialog) => focusFirstField(dialog, () => setFocus('code'))}
      onExited={onExited}
      aria-labelledby="coupon-form-title"
      centered
    >
      <form onSubmit={onSubmit} noValidate>
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id="coupon-form-title" as="h2" className="h5">
            {title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Field
            id="coupon-code"
            label="Code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={32}
            registration={register('code')}
            error={errors.code?.message}
            hint="3 to 32 letters, digits, hyphens or underscores; saved in capitals."
          />
          <div className="mb-3">
            <label htmlFor="coupon-type" className="form-label">
              Type
            </label>
            <select
              id="coupon-type"
              className={`form-select${errors.type ? ' is-invalid' : ''}`}
              aria-invalid={errors.type ? true : undefined}
              aria-describedby={errors.type ? 'coupon-type-error' : undefined}
              {...register('type')}
            >
              {COUPON_TYPES.map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABELS[t]}
                </option>
              ))}
            </select>
            {errors.type && (
              <div id="coupon-type-error" className="invalid-feedback d-block">
                {errors.type.message}
              </div>
            )}
          </div>
          {type === 'free_shipping' ? (
            <p className="form-text mb-3" data-testid="coupon-value-note">
              Free shipping takes the shipping off the order: no value is needed.
            </p>
          ) : (
            <Field
              id="coupon-value"
              label="Value"
              {...(type === 'percent'
                ? { type: 'number', min: 1, max: 100, step: '0.01', inputMode: 'decimal' }
                : AMOUNT)}
              registration={register('value')}
              error={errors.value?.message}
              hint={type === 'percent' ? 'Percent off the items, 1 to 100.' : 'Dollars off the items.'}
            />
          )}
          <Field
            id="coupon-min"
            label="Minimum items price"
            {...AMOUNT}
            registration={register('minItemsPrice')}
            error={errors.minItemsPrice?.message}
            hint="Dollars; 0 for no minimum."
          />
          <div className="row g-3 mb-3">
            <Field
              id="coupon-starts"
              label="Starts at"
              type="datetime-local"
              className="col-sm-6"
              registration={register('startsAt')}
              error={errors.startsAt?.message}
              hint="Your local time; empty: valid now."
            />
            <Field
              id="coupon-ends"
              label="Ends at"
              type="datetime-local"
              className="col-sm-6"
              registration={register('endsAt')}
              error={errors.endsAt?.message}
              hint="Empty: never ends."
            />
          </div>
          <div className="row g-3 mb-3">
            <Field
              id="coupon-usage"
              label="Usage limit"
              {...LIMIT}
              className="col-sm-6"
              registration={register('usageLimit')}
              error={errors.usageLimit?.message}
              hint="Orders in all; empty: unlimited."
            />
            <Field
              id="coupon-per-customer"
              label="Limit per customer"
              {...LIMIT}
              className="col-sm-6"
              registration={register('perCustomerLimit')}
              error={errors.perCustomerLimit?.message}
              hint="Empty: unlimited."
            />
          </div>
          <div className="form-check">
            <input id="coupon-active" type="checkbox" className="form-check-input" {...register('isActive')} />
            <label htmlFor="coupon-active" className="form-check-label">
              Active
            </label>
          </div>
          <div aria-live="assertive" className="mt-3">
            {serverError && <Message variant="danger">{serverError}</Message>}
          </div>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save'}
          </Button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
