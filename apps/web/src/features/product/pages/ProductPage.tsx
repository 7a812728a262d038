import { useQueryClient } from '@tanstack/react-query';
import DOMPurify from 'dompurify';
import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { Rating } from '#web/components/Rating.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { isNotFound } from '#web/lib/api.ts';
import { useAuth } from '#web/lib/auth.ts';
import { lineFor } from '#web/lib/cart-logic.ts';
import { useCart } from '#web/lib/cart.ts';
import { catalogKeys, useProduct } from '#web/lib/catalog.ts';
import { BuyBox } from '../components/BuyBox.tsx';
import { Gallery } from '../components/Gallery.tsx';
import { Reviews } from '../components/Reviews.tsx';
import { galleryMedia, mediaIndexOfVariant } from '../gallery.ts';
import { useProductHead } from '../product-head.ts';
import { paths } from '#web/lib/paths.ts';
import { rememberProductViewed } from '#web/lib/recently-viewed.ts';

export default function ProductPage() {
  const { idOrSlug = '' } = useParams();
  const { data: product, isPending, isError, error } = useProduct(idOrSlug);
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const userInfo = useAuth((s) => s.userInfo);
  const addToCart = useCart((s) => s.add);
  const [variantId, setVariantId] = useState<string | null>(null);
  const [mediaIndex, setMediaIndex] = useState(0);

  // An id (or a former slug) in the address becomes the product's slug once it has loaded.
  useEffect(() => {
    if (product && idOrSlug !== product.slug) {
      queryClient.setQueryData(catalogKeys.product(product.slug), product);
      navigate(`${paths.product(product.slug)}${location.search}${location.hash}`, { replace: true });
    }
  }, [product, idOrSlug, navigate, queryClient, location.search, location.hash]);

  // Another product: start again at its first picture.
  const productId = product?._id;
  useEffect(() => {
    setVariantId(null);
    setMediaIndex(0);
  }, [productId]);

  // the last product viewed leads the shopper's "Recently viewed" row (kept in the browser)
  useEffect(() => {
    if (product)
      rememberProductViewed({ _id: product._id, slug: product.slug, name: product.name, image: product.image });
  }, [product]);

  useProductHead(product);
  useDocumentTitle(isError ? (isNotFound(error) ? 'Product not found' : 'Error') : null);
  const media = useMemo(() => (product ? galleryMedia(product) : []), [product]);
  const description = useMemo(() => (product ? DOMPurify.sanitize(product.description) : ''), [product]);

  if (isPending) return <Loader label="Loading product…" />;
  if (isError)
    return isNotFound(error) ? (
      <div className="py-5 text-center">
        <h1 className="h3">Product not found</h1>
        <p className="text-body-secondary">It may have been removed, or the link is mistyped.</p>
        <Link to={paths.home} className="btn btn-primary">
          Back to the shop
        </Link>
      </div>
    ) : (
      <Message variant="danger">{error.message}</Message>
    );

  const variant = product.colorsVariants.find((v) => v._id === variantId) ?? null;
  const chooseVariant = (id: string) => {
    setVariantId(id);
    const i = mediaIndexOfVariant(media, product, id);
    if (i >= 0) setMediaIndex(i);
  };
  const selectMedia = (i: number) => {
    setMediaIndex(i);
    const m = media[i];
    if (m?.kind === 'image' && m.variantId) setVariantId(m.variantId);
  };

  return (
    <article className="product-page">
      <nav aria-label="Breadcrumb">
        <ol className="breadcrumb small mb-3">
          <li className="breadcrumb-item">
            <Link to={paths.home}>Home</Link>
          </li>
          {product.category && (
            <li className="breadcrumb-item">
              {product.categorySlug ? (
                <Link to={paths.category(product.categorySlug)}>{product.category}</Link>
              ) : (
                product.category
              )}
            </li>
          )}
          <li className="breadcrumb-item active text-truncate" aria-current="page">
            {product.name}
          </li>
        </ol>
      </nav>
      <div className="row g-4 g-lg-5">
        <div className="col-lg-7">
          <Gallery media={media} index={mediaIndex} onPreview={setMediaIndex} onSelect={selectMedia} />
        </div>
        <div className="col-lg-5">
          {product.brand && (
            <p className="text-body-secondary text-uppercase small fw-semibold mb-1">{product.brand}</p>
          )}
          <h1 className="h3 product-title">{product.name}</h1>
          <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
            <Rating
              value={product.rating}
              text={`${product.numReviews} ${product.numReviews === 1 ? 'review' : 'reviews'}`}
            />
            {userInfo?.isAdmin && (
              <Link to={paths.adminProductEdit(product._id)} className="btn btn-outline-secondary btn-sm ms-auto">
                Edit
              </Link>
            )}
          </div>
          <BuyBox
            product={product}
            variant={variant}
            onVariant={chooseVariant}
            onAdd={(qty) => {
              addToCart(lineFor(product, variant, qty));
              navigate(paths.cart);
            }}
          />
          <dl className="product-facts small mt-4 mb-0">
            {product.brand && (
              <>
                <dt>Brand</dt>
                <dd>{product.brand}</dd>
              </>
            )}
            {product.category && (
              <>
                <dt>Category</dt>
                <dd>{product.category}</dd>
              </>
            )}
          </dl>
        </div>
      </div>
      {description && (
        <section aria-labelledby="description-heading" className="mt-5">
          <h2 id="description-heading" className="h4 mb-3">
            Description
          </h2>
          <div className="product-description" dangerouslySetInnerHTML={{ __html: description }} />
        </section>
      )}
      <Reviews
        productId={product._id}
        reviews={product.reviews}
        slug={product.slug}
        signedIn={Boolean(userInfo && !userInfo.isGuest)}
      />
    </article>
  );
}
