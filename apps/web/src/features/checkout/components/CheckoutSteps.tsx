import { Link } from 'react-router';
import { paths } from '#web/lib/paths.ts';

type Step = 'signin' | 'shipping' | 'payment' | 'placeorder';

const STEPS: { key: Step; label: string; to: string }[] = [
  { key: 'signin', label: 'Sign In', to: paths.loginThen(paths.shipping) },
  { key: 'shipping', label: 'Shipping', to: paths.shipping },
  { key: 'payment', label: 'Payment', to: paths.payment },
  { key: 'placeorder', label: 'Place Order', to: paths.placeOrder },
];

/**
 * Step bar of the checkout pages. Steps up to `current` are links; the current one is marked
 * for assistive technology. Guests get no sign-in step.
 */
export function CheckoutSteps({ current, isGuest }: { current: Step; isGuest: boolean }) {
  const steps = isGuest ? STEPS.filter((s) => s.key !== 'signin') : STEPS;
  const currentIndex = steps.findIndex((s) => s.key === current);
  return (
    <nav aria-label="Checkout steps" className="mb-4">
      <ol className="checkout-steps list-unstyled d-flex flex-wrap justify-content-center gap-2 gap-sm-4 mb-0">
        {steps.map((step, i) => {
          const done = i < currentIndex;
          const active = i === currentIndex;
          return (
            <li key={step.key} className="checkout-step">
              {active ? (
                <span className="fw-bold text-primary-emphasis" aria-current="step">
                  {i + 1}. {step.label}
                </span>
              ) : done && step.key !== 'signin' ? (
                <Link to={step.to}>
                  {i + 1}. {step.label}
                </Link>
              ) : (
                <span className={done ? 'text-body' : 'text-body-secondary'}>
                  {i + 1}. {step.label}
                  {done && <span className="visually-hidden"> (done)</span>}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
