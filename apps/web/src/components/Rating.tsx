const STAR = 'M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z';

function Stars({ className }: { className: string }) {
  return (
    <span className={className}>
      {[0, 1, 2, 3, 4].map((i) => (
        <svg key={i} viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true" focusable="false">
          <path d={STAR} fill="currentColor" />
        </svg>
      ))}
    </span>
  );
}

interface RatingProps {
  value: number;
  /** Shown after the stars, e.g. "12 reviews". */
  text?: string;
  className?: string;
}

/** Star rating 0..5 with fractions; read out as "Rated 4.5 out of 5". */
export function Rating({ value, text, className = '' }: RatingProps) {
  const v = Math.max(0, Math.min(5, Number.isFinite(value) ? value : 0));
  const label = `Rated ${Number(v.toFixed(1))} out of 5`;
  return (
    <span className={`rating ${className}`}>
      <span className="rating-stars" role="img" aria-label={label}>
        <Stars className="rating-empty" />
        <span className="rating-fill" style={{ width: `${(v / 5) * 100}%` }}>
          <Stars className="rating-full" />
        </span>
      </span>
      {text && <span className="rating-text">{text}</span>}
    </span>
  );
}
