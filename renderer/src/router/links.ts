/**
 * Pure: whether a link inside message content points into the app (a Zulip narrow or view of this
 * realm) and, if so, the fragment to navigate to. Zulip renders channel and topic links as
 * `/#narrow/...`; people paste full links `https://chat.example.com/#narrow/...`. Anything else
 * (another site, another path of the realm such as an upload, mailto:) is external and keeps
 * opening outside the app.
 */

const trimSlash = (p: string) => (p.endsWith('/') ? p.slice(0, -1) : p);

/** The fragment to open in the app, or null for an external link. */
export function internalHash(href: string, opts: { realmUrl: string | null; pageUrl: string }): string | null {
  const h = href.trim();
  if (h === '') return null;
  // Fragment-only and root-relative fragment links: Zulip's own rendering of channel and topic links.
  if (h.startsWith('#')) return h.length > 1 ? h : null;
  if (h.startsWith('/#')) return h.length > 2 ? h.slice(1) : null;
  let url: URL;
  try {
    url = new URL(h);
  } catch {
    return null;
  }
  if (url.hash.length <= 1) return null;
  const sameApp = (base: string | null): boolean => {
    if (base === null) return false;
    try {
      const b = new URL(base);
      return b.origin !== 'null' && url.origin === b.origin && trimSlash(url.pathname) === trimSlash(b.pathname) && url.search === '';
    } catch {
      return false;
    }
  };
  // The realm's web app (its root) or this page itself.
  return sameApp(opts.realmUrl) || sameApp(opts.pageUrl) ? url.hash : null;
}
