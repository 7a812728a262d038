import { LIMITS, TOAST_MS, type AddressSuggestion } from '@store/shared';
import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useForm, useWatch, type FieldPath } from 'react-hook-form';
import { Navigate, useNavigate } from 'react-router';
import { TimedToast, type ToastContent } from '#web/components/TimedToast.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useAuth } from '#web/lib/auth.ts';
import { saveProfileAddress, subscribeToMailingList, validateAddress } from '../api.ts';
import { AddressSuggestionModal, type AddressChoice } from '../components/AddressSuggestionModal.tsx';
import { CheckoutSteps } from '../components/CheckoutSteps.tsx';
import {
  applySuggestion,
  COUNTRY_OPTIONS,
  countryOption,
  shippingResolver,
  stateChoices,
  stateOption,
  type ShippingFormValues,
} from '../shipping-form.ts';
import { initialAddress, useCheckout, type CheckoutAddress } from '../store.ts';
import { paths } from '#web/lib/paths.ts';
import { failureText } from '#web/lib/api.ts';

const FIELDS: {
  name: FieldPath<ShippingFormValues>;
  label: string;
  autoComplete: string;
  max: number;
  required?: boolean;
  type?: string;
}[] = [
  {
    name: 'shipToFirstName',
    label: 'First Name',
    autoComplete: 'given-name',
    max: LIMITS.shippingName,
    required: true,
  },
  { name: 'shipToLastName', label: 'Last Name', autoComplete: 'family-name', max: LIMITS.shippingName, required: true },
  { name: 'address1', label: 'Address 1', autoComplete: 'address-line1', max: LIMITS.addressLine, required: true },
  { name: 'address2', label: 'Address 2 (optional)', autoComplete: 'address-line2', max: LIMITS.addressLine },
  { name: 'city', label: 'City', autoComplete: 'address-level2', max: LIMITS.city, required: true },
  { name: 'state', label: 'State', autoComplete: 'address-level1', max: LIMITS.state, required: true },
  { name: 'postalCode', label: 'Postal Code', autoComplete: 'postal-code', max: 16, required: true },
];

export default function ShippingPage() {
  useDocumentTitle('Shipping');
  const userInfo = useAuth((s) => s.userInfo);
  const saved = useCheckout((s) => s.shippingAddress);
  const saveShippingAddress = useCheckout((s) => s.saveShippingAddress);
  const cleared = useCheckout((s) => s.cleared);
  const navigate = useNavigate();
  const [suggestion, setSuggestion] = useState<AddressSuggestion | null>(null);
  const [pending, setPending] = useState<ShippingFormValues | null>(null);
  const [saving, setSaving] = useState(false);
  const [toast, setToast] = useState<ToastContent | null>(null);

  const start = initialAddress(saved, userInfo?.email ?? '', cleared);
  const startCountry = countryOption(start.country);
  const startStates = stateChoices(startCountry);
  const {
    register,
    handleSubmit,
    setValue,
    getValues,
    control,
    formState: { errors, isSubmitting },
  } = useForm<ShippingFormValues>({
    resolver: shippingResolver,
    defaultValues: {
      ...start,
      country: startCountry,
      state: startStates ? stateOption(start.state, startStates) : start.state,
      optIn: false,
    },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  // the state is a select for the countries whose states are known, a text field elsewhere
  const country = useWatch({ control, name: 'country' });
  const states = stateChoices(country);
  // another country's state is no choice of this one: the select keeps only a state it lists
  useEffect(() => {
    const list = stateChoices(country);
    if (list) setValue('state', stateOption(getValues('state'), list));
  }, [country, getValues, setValue]);

  // a registered user's e-mail arrives with the stored user
  useEffect(() => {
    if (!saved?.email && userInfo?.email) setValue('email', userInfo.email);
  }, [saved?.email, userInfo?.email, setValue]);

  if (!userInfo) return <Navigate to={paths.loginThen(paths.shipping)} replace />;

  const onSubmit = async (values: ShippingFormValues) => {
    try {
      const s = await validateAddress({
        address1: values.address1,
        address2: values.address2,
        city: values.city,
        postalCode: values.postalCode,
        state: values.state,
        country: values.country,
      });
      setPending(values);
      setSuggestion(s);
    } catch (err) {
      setToast({
        title: 'Address Error',
        body: failureText(err, 'Address validation failed'),
        variant: 'danger',
      });
    }
  };

  const onSave = async (choice: AddressChoice) => {
    if (!pending || !suggestion) return;
    const { optIn, ...values } = pending;
    const address: CheckoutAddress = choice === 'suggested' ? applySuggestion(values, suggestion) : values;
    for (const [k, v] of Object.entries(address)) setValue(k as keyof CheckoutAddress, v);
    setSaving(true);
    try {
      await saveProfileAddress(address, userInfo.isGuest);
    } catch (err) {
      setSaving(false);
      setSuggestion(null);
      setToast({
        title: 'Profile Error',
        body: failureText(err, 'Failed to update profile'),
        variant: 'danger',
      });
      return;
    }
    if (optIn) subscribeToMailingList(address.email);
    saveShippingAddress(address);
    setSaving(false);
    setSuggestion(null);
    navigate(paths.payment);
  };

  const field = (name: FieldPath<ShippingFormValues>) => {
    const error = errors[name as keyof ShippingFormValues]?.message;
    return {
      isInvalid: Boolean(error),
      'aria-invalid': Boolean(error) || undefined,
      'aria-describedby': error ? `${name}-error` : undefined,
      error,
    };
  };

  const emailField = field('email');
  const countryField = field('country');

  return (
    <div className="checkout-page mx-auto" style={{ maxWidth: 640 }}>
      <CheckoutSteps current="shipping" isGuest={userInfo.isGuest} />
      <h1 className="h3 mb-3">Shipping</h1>
      <Form noValidate onSubmit={handleSubmit(onSubmit)} aria-label="Shipping address">
        <Form.Group className="mb-3" controlId="email">
          <Form.Label>Email</Form.Label>
          <Form.Control
            type="email"
            autoComplete="email"
            maxLength={LIMITS.email}
            required
            isInvalid={emailField.isInvalid}
            aria-invalid={emailField['aria-invalid']}
            aria-describedby={emailField['aria-describedby']}
            {...register('email')}
          />
          <Form.Control.Feedback type="invalid" id="email-error">
            {emailField.error}
          </Form.Control.Feedback>
        </Form.Group>
        <Form.Check
          className="mb-3"
          id="optIn"
          type="checkbox"
          label="Send me promotions & deals"
          {...register('optIn')}
        />
        <div className="row g-3 mb-3">
          <Form.Group className="col-12" controlId="country">
            <Form.Label>Country</Form.Label>
            <Form.Select
              autoComplete="country"
              required
              isInvalid={countryField.isInvalid}
              aria-invalid={countryField['aria-invalid']}
              aria-describedby={countryField['aria-describedby']}
              {...register('country')}
            >
              <option value="">Choose your country</option>
              {COUNTRY_OPTIONS.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </Form.Select>
            <Form.Control.Feedback type="invalid" id="country-error">
              {countryField.error}
            </Form.Control.Feedback>
          </Form.Group>
          {FIELDS.map((f) => {
            const state = field(f.name);
            const half =
              f.name === 'shipToFirstName' ||
              f.name === 'shipToLastName' ||
              f.name === 'state' ||
              f.name === 'postalCode';
            return (
              <Form.Group key={f.name} className={half ? 'col-sm-6' : 'col-12'} controlId={f.name}>
                <Form.Label>{f.label}</Form.Label>
                {f.name === 'state' && states ? (
                  <Form.Select
                    autoComplete={f.autoComplete}
                    required
                    isInvalid={state.isInvalid}
                    aria-invalid={state['aria-invalid']}
                    aria-describedby={state['aria-describedby']}
                    {...register(f.name)}
                  >
                    <option value="">Choose…</option>
                    {states.map((c) => (
                      <option key={c.value} value={c.value}>
                        {c.label}
                      </option>
                    ))}
                  </Form.Select>
                ) : (
                  <Form.Control
                    type="text"
                    autoComplete={f.autoComplete}
                    maxLength={f.max}
                    required={f.required}
                    isInvalid={state.isInvalid}
                    aria-invalid={state['aria-invalid']}
                    aria-describedby={state['aria-describedby']}
                    {...register(f.name)}
                  />
                )}
                <Form.Control.Feedback type="invalid" id={`${f.name}-error`}>
                  {state.error}
                </Form.Control.Feedback>
              </Form.Group>
            );
          })}
        </div>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Checking…' : 'Continue'}
        </Button>
      </Form>
      <AddressSuggestionModal
        suggestion={suggestion}
        entered={pending}
        saving={saving}
        onSave={(choice) => void onSave(choice)}
        onClose={() => setSuggestion(null)}
      />
      <TimedToast toast={toast} delay={TOAST_MS.shippingError} onClose={() => setToast(null)} />
    </div>
  );
}
