import { PRODUCT_MESSAGES, productUpdateSchema, type Product } from '@store/shared';
import { describe, expect, it } from 'vitest';
import { defaultFolder, emptyVariant, toBody, toValues, variantOfTakenSku, type EditValues } from './form-values.ts';

const product = {
  _id: 'p1',
  name: 'Mug',
  purchaseLink: '',
  price: 12,
  shippingMethod: '',
  imageFolderName: '',
  image: '',
  imageB: [],
  video: '',
  brand: '',
  countInStock: 7,
  categoryId: null,
  description: '',
  colorsVariants: [
    { _id: 'v1', name: 'Blue', src: '', price: null, countInStock: 3, sku: 'MUG-BLUE' },
    { _id: 'v2', name: 'Red', src: '', price: 14, countInStock: null, sku: '' },
  ],
} as unknown as Product;

/** What the form submits: the values read by the shared schema (as the resolver does), then the PUT body. */
function submit(values: EditValues) {
  const parsed = productUpdateSchema.safeParse(values);
  return parsed.success ? { body: toBody('p1', parsed.data) } : { issues: parsed.error.issues };
}

describe('the gallery folder', () => {
  it("defaults to the product's slug, so uploads work at once; a folder already set stays", () => {
    expect(toValues({ ...product, slug: 'sample-name-3' }).imageFolderName).toBe('sample-name-3');
    expect(toValues({ ...product, slug: 'mug', imageFolderName: 'mugs_2024' }).imageFolderName).toBe('mugs_2024');
    expect(defaultFolder('x'.repeat(80))).toHaveLength(64);
    expect(defaultFolder('')).toBe('products');
  });
});

describe('variant stock and SKU in the edit form', () => {
  it('shows a stock of its own as text and none as empty, the SKU as it is', () => {
    expect(toValues(product).colorsVariants).toEqual([
      { _id: 'v1', name: 'Blue', src: '', price: '', countInStock: '3', sku: 'MUG-BLUE' },
      { _id: 'v2', name: 'Red', src: '', price: '14', countInStock: '', sku: '' },
    ]);
    expect(emptyVariant()).toEqual({ name: '', src: '', price: '', countInStock: '', sku: '' });
  });

  it('sends an empty stock as null (the product stock) and a number as the variant stock', () => {
    const values = toValues(product);
    values.colorsVariants[0]!.countInStock = '0';
    values.colorsVariants[1]!.sku = ' mug-red ';
    const { body } = submit(values);
    expect(body?.colorsVariants).toEqual([
      { _id: 'v1', name: 'Blue', src: '', price: null, countInStock: 0, sku: 'MUG-BLUE' },
      { _id: 'v2', name: 'Red', src: '', price: 14, countInStock: null, sku: 'mug-red' },
    ]);
  });

  it('refuses a stock that is no whole number from 0, a bad SKU and a SKU given twice, on that field', () => {
    const at = (values: EditValues) =>
      (submit(values).issues ?? []).map((i) => ({ path: i.path.join('.'), message: i.message }));
    for (const stock of ['-1', '1.5', 'many', '1000001']) {
      const values = toValues(product);
      values.colorsVariants[0]!.countInStock = stock;
      expect(at(values)).toEqual([{ path: 'colorsVariants.0.countInStock', message: PRODUCT_MESSAGES.variantStock }]);
    }
    const values = toValues(product);
    values.colorsVariants[1]!.sku = 'has space';
    expect(at(values)).toEqual([{ path: 'colorsVariants.1.sku', message: PRODUCT_MESSAGES.sku }]);
    values.colorsVariants[1]!.sku = 'x'.repeat(65);
    expect(at(values)).toEqual([{ path: 'colorsVariants.1.sku', message: PRODUCT_MESSAGES.sku }]);
    values.colorsVariants[1]!.sku = 'mug-blue';
    expect(at(values)).toEqual([{ path: 'colorsVariants.1.sku', message: PRODUCT_MESSAGES.skuRepeated('mug-blue') }]);
  });

  it('finds the variant a taken-SKU refusal names, whatever the case it is stored in', () => {
    const variants = [{ sku: '' }, { sku: 'mug-blue' }, { sku: 'MUG' }];
    expect(variantOfTakenSku(PRODUCT_MESSAGES.skuTaken('MUG-BLUE'), variants)).toBe(1);
    expect(variantOfTakenSku(PRODUCT_MESSAGES.skuTaken('MUG'), variants)).toBe(2);
    expect(variantOfTakenSku('Product not found', variants)).toBe(-1);
  });
});
