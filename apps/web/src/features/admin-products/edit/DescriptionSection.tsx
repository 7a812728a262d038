import { lazy, Suspense } from 'react';
import { useWatch } from 'react-hook-form';
import { Loader } from '#web/components/Loader.tsx';
import { useEditForm } from './form-values.ts';

// the editor (TipTap and ProseMirror) is a chunk of its own, fetched only when the edit page shows it
const RichTextEditor = lazy(() => import('./RichTextEditor.tsx'));

/** The product description, in the rich-text editor. */
export function DescriptionSection() {
  const { control, setValue, formState } = useEditForm();
  const { errors } = formState;
  const description = useWatch({ control, name: 'description' });
  return (
    <div className="mb-4">
      <div id="description-label" className="form-label">
        Description
      </div>
      <Suspense fallback={<Loader label="Loading the editor…" />}>
        <RichTextEditor
          value={description}
          onChange={(html) => setValue('description', html, { shouldDirty: true })}
          labelId="description-label"
          invalid={Boolean(errors.description)}
          describedBy={errors.description ? 'description-error' : undefined}
        />
      </Suspense>
      {errors.description && (
        <div id="description-error" className="invalid-feedback d-block">
          {errors.description.message}
        </div>
      )}
    </div>
  );
}
