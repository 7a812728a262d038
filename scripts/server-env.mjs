// The environment every launch of the server bundle adds (npm start sets the same in package.json).
// glibc's malloc raises its mmap threshold after the first large free, so the keyword index's and the facet
// table's temporary arrays, built at start, end up in the main heap, which it never gives back: about 70 MB
// more resident memory per process at 1,000,000 products. Fixed thresholds return large blocks at once.
// See docs/decisions/014-production-runs-a-bundled-server.md.
export const MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };
