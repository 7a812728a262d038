export function Loader({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="d-flex justify-content-center py-5" role="status">
      <div className="spinner-border" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
