/**
 * Columns the catalogue's in-process indexes hold alike. The keyword index (search-index.ts) and the facet
 * table (facet-index.ts) both read every active product in id order, so between catalogue changes their
 * ids, prices, brand codes and category codes are equal, byte for byte: at 1,000,000 products ~18 MB kept
 * twice. A column equal to the last one kept under its name is shared instead. Columns are never written
 * after a build, so sharing one changes no answer; a column is held weakly and goes with the last index
 * using it.
 */

type Column = Uint8Array | Uint16Array | Uint32Array | Int32Array;

const kept = new Map<string, WeakRef<Column>>();

const bytesOf = (c: Column) => Buffer.from(c.buffer, c.byteOffset, c.byteLength);

/** `column`, or the equal column of the same kind last kept under `name`. */
export function sharedColumn<T extends Column>(name: string, column: T): T {
  const last = kept.get(name)?.deref();
  if (
    last !== undefined &&
    last !== column &&
    last.constructor === column.constructor &&
    last.byteLength === column.byteLength &&
    bytesOf(last).equals(bytesOf(column))
  )
    return last as T;
  kept.set(name, new WeakRef(column));
  return column;
}
