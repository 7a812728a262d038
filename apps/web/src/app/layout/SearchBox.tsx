import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { SearchIcon } from '#web/components/icons.tsx';
import { useMaxNameLength } from '#web/features/catalog/api.ts';
import { paths } from '#web/lib/paths.ts';

/** Header search: goes to /search/{keyword}, or home when empty. */
export function SearchBox({ onSearch }: { onSearch?: () => void }) {
  const navigate = useNavigate();
  const { keyword: current = '' } = useParams();
  const maxLength = useMaxNameLength();
  const [keyword, setKeyword] = useState(current);

  // Follow the address (back/forward, links), so the box shows what the page lists.
  useEffect(() => setKeyword(current), [current]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const k = keyword.trim().slice(0, maxLength);
    navigate(k ? paths.search(k) : paths.home);
    onSearch?.();
  };

  return (
    <form role="search" className="header-search" onSubmit={submit}>
      <label htmlFor="header-search" className="visually-hidden">
        Search products
      </label>
      <div className="input-group">
        <input
          id="header-search"
          type="search"
          name="q"
          className="form-control"
          placeholder="Search products..."
          autoComplete="off"
          enterKeyHint="search"
          maxLength={maxLength}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
        />
        <button type="submit" className="btn btn-primary" aria-label="Search">
          <SearchIcon />
        </button>
      </div>
    </form>
  );
}
