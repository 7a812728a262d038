import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import { Message } from '#web/components/Message.tsx';
import { paths } from '#web/lib/paths.ts';

/**
 * What an order page says when the visitor may not see the order yet. Signed out, the first offer is to sign
 * in (and come back to this order); the e-mail and postal code check is for an order placed as a guest. A
 * guest session that is not the order's gets the check straight away.
 */
export function OrderAccessPrompt({
  orderId,
  signedOut,
  onVerify,
}: {
  orderId: string;
  signedOut: boolean;
  onVerify: () => void;
}) {
  if (!signedOut) {
    return (
      <>
        <Message variant="info">Verify the e-mail address and postal code of this order to see it.</Message>
        <Button onClick={onVerify}>Verify Order Access</Button>
      </>
    );
  }
  return (
    <section className="card p-4" aria-labelledby="order-sign-in">
      <h2 id="order-sign-in" className="h5">
        Sign in to see this order
      </h2>
      <p>If you placed it with your account, sign in and it opens right here.</p>
      <p>
        <Link to={paths.login(paths.order(orderId))} className="btn btn-primary">
          Sign In
        </Link>
      </p>
      <p className="mb-2 text-body-secondary">Ordered as a guest? Check the e-mail address and postal code instead.</p>
      <div>
        <Button variant="outline-secondary" onClick={onVerify}>
          Verify Order Access
        </Button>
      </div>
    </section>
  );
}
