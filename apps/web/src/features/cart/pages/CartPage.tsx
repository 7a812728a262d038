import { formatMoney, fromCents, stockFor } from '@store/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { RecentlyViewed } from '#web/components/RecentlyViewed.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { productQuery } from '#web/lib/catalog.ts';
import { itemCount, itemsTotalCents, lineFor, subtotalLabel } from '#web/lib/cart-logic.ts';
import { CartLine } from '../components/CartLine.tsx';
import { useCart } from '#web/lib/cart.ts';
import { paths } from '#web/lib/paths.ts';

/** /cart/{id?}?qty=&selectedColorsVariants=: arriving with an id adds that line, then the address drops it. */
function useAddFromUrl() {
  const { id } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const add = useCart((s) => s.add);
  const [error, setError] = useState<string | null>(null);
  const done = useRef<string | null>(null);
  const qty = Math.max(1, Math.floor(Number(search.get('qty') ?? '1')) || 1);
  const variantId = search.get('selectedColorsVariants');

  useEffect(() => {
    if (!id) {
      done.current = null;
      return;
    }
    const key = `${id}|${qty}|${variantId ?? ''}`;
    if (done.current === key) return; // StrictMode runs effects twice: add once
    done.current = key;
    queryClient
      .fetchQuery(productQuery(id))
      .then((product) => {
        const variant = product.colorsVariants.find((v) => v._id === variantId) ?? null;
        // the chosen variant's stock (its own, or the product's it draws on) decides
        if (stockFor(product, variant) <= 0) {
          setError(`${product.name}${variant ? ` (${variant.name})` : ''} is out of stock.`);
        } else {
          add(lineFor(product, variant, qty));
          setError(null);
        }
      })
      .catch((err: Error) => setError(err.message))
      .finally(() => navigate(paths.cart, { replace: true })); // a reload must not add it again
  }, [id, qty, variantId, add, navigate, queryClient]);

  return { adding: Boolean(id), error };
}

interface CartPageProps {
  /** The way into the checkout under the subtotal (the app supplies the checkout's buttons). */
  checkout: (disabled: boolean) => ReactNode;
}

export default function CartPage({ checkout }: CartPageProps) {
  useDocumentTitle('Shopping Cart');
  const { adding, error } = useAddFromUrl();
  const items = useCart((s) => s.cartItems);
  const setQty = useCart((s) => s.setQty);
  const remove = useCart((s) => s.remove);
  const count = itemCount(items);

  return (
    <>
      <h1 className="h3 mb-4">Shopping Cart</h1>
      {error && <Message variant="danger">{error}</Message>}
      {adding ? (
        <Loader label="Adding to cart…" />
      ) : items.length === 0 ? (
        <div className="cart-empty text-center py-5">
          <p className="fs-5 mb-3">Your cart is empty.</p>
          <Link to={paths.home} className="btn btn-primary">
            Go shopping
          </Link>
          <div className="text-start">
            <RecentlyViewed />
          </div>
        </div>
      ) : (
        <div className="row g-4">
          <div className="col-lg-8">
            <ul className="list-unstyled cart-lines mb-0" aria-label="Items in your cart">
              {items.map((item) => {
                const variantId = item.selectedColorsVariants?._id ?? null;
                return (
                  <CartLine
                    key={`${item.product}:${variantId ?? ''}`}
                    item={item}
                    onQty={(qty) => setQty(item.product, variantId, qty)}
                    onRemove={() => remove(item.product, variantId)}
                  />
                );
              })}
            </ul>
          </div>
          <div className="col-lg-4">
            <section className="card cart-summary" aria-labelledby="summary-heading">
              <div className="card-body">
                <h2 id="summary-heading" className="h5">
                  {subtotalLabel(count)}
                </h2>
                <p className="fs-4 fw-bold mb-3" data-testid="cart-total">
                  {formatMoney(fromCents(itemsTotalCents(items)))}
                </p>
                {checkout(items.length === 0)}
                <Link to={paths.home} className="btn btn-outline-primary w-100">
                  Keep Shopping!
                </Link>
              </div>
            </section>
          </div>
        </div>
      )}
    </>
  );
}
