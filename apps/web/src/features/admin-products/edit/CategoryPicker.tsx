import type { Category } from '@store/shared';
import { useState } from 'react';
import { useCategories } from './api.ts';

/**
 * The category, picked from the tree (GET /api/categories/roots, then /{id}/children level by level).
 * `value` is the category id ('' for none); until a new one is picked the current name is shown.
 */
export function CategoryPicker({
  value,
  initialId,
  currentName,
  onChange,
  error,
}: {
  value: string;
  initialId: string;
  currentName: string;
  onChange: (id: string) => void;
  error?: string;
}) {
  const [path, setPath] = useState<Category[]>([]);
  const shown = path.length > 0 ? path.map((c) => c.name).join(' › ') : value ? currentName || value : 'None';
  const pick = (depth: number, cat: Category | null) => {
    const next = [...path.slice(0, depth), ...(cat ? [cat] : [])];
    setPath(next);
    onChange(next.at(-1)?._id ?? initialId);
  };
  return (
    <fieldset className="mb-3" aria-describedby="category-current">
      <legend className="form-label fs-6 mb-1">Category</legend>
      <div id="category-current" className="form-text mt-0 mb-2" aria-live="polite">
        Selected: <strong data-testid="category-selected">{shown}</strong>
        {value && (
          <button
            type="button"
            className="btn btn-link btn-sm py-0"
            onClick={() => {
              setPath([]);
              onChange('');
            }}
          >
            Remove category
          </button>
        )}
      </div>
      <CategoryLevel parent={null} depth={0} path={path} onPick={pick} />
      {error && <div className="invalid-feedback d-block">{error}</div>}
    </fieldset>
  );
}

function CategoryLevel({
  parent,
  depth,
  path,
  onPick,
}: {
  parent: Category | null;
  depth: number;
  path: Category[];
  onPick: (depth: number, cat: Category | null) => void;
}) {
  const { data, error, isPending } = useCategories(parent?._id ?? null);
  const selected = path[depth];
  const id = `category-level-${depth}`;
  const label = parent ? `Subcategory of ${parent.name}` : 'Choose a category';
  if (error) return <div className="alert alert-danger py-2">{error.message}</div>;
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <select
        id={id}
        className="form-select mb-2"
        value={selected?._id ?? ''}
        disabled={isPending}
        onChange={(e) => onPick(depth, data?.find((c) => c._id === e.target.value) ?? null)}
      >
        <option value="">{isPending ? 'Loading…' : parent ? `Any in ${parent.name}` : 'Choose a category…'}</option>
        {data?.map((c) => (
          <option key={c._id} value={c._id}>
            {c.name}
          </option>
        ))}
      </select>
      {selected?.hasChildren && <CategoryLevel parent={selected} depth={depth + 1} path={path} onPick={onPick} />}
    </>
  );
}
