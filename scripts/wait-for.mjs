/** Shared by the bench and Lighthouse scripts: waits until `url` answers 2xx (a server starting up). */
export async function waitFor(url, ms = 180_000) {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${url}`);
}
