/**
 * The server's own requests to other sites (the image proxy, link previews): http(s) only, a
 * deadline for the whole answer, a size cap (reading stops past it), at most a few redirects (each
 * checked again). Like Zulip's camo and its link-preview fetcher, it never sends a user's credentials.
 * It does reach loopback: tests' "other site" listens there (a real deployment's proxy refuses
 * private addresses; this server is a reference, not an open proxy: only URLs it signed are fetched).
 * Names reserved for examples and tests (RFC 2606/6761: `.example`, `.invalid`, `.test`,
 * `example.com/net/org`) are never looked up: tests write them for sites that must not be reached.
 */
export interface Fetched {
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
}

const MAX_REDIRECTS = 3;
const RESERVED_HOST = /(?:^|\.)(?:example|invalid|test|example\.(?:com|net|org))\.?$/i;

export class OutboundError extends Error {}

/** The answer of `url` (following redirects), or an `OutboundError` (not http(s), no answer in time, too large). */
export async function fetchOutbound(url: string, opts: { maxBytes: number; timeoutMs: number; accept: string }): Promise<Fetched> {
  const signal = AbortSignal.timeout(opts.timeoutMs);
  let target = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let u: URL;
    try {
      u = new URL(target);
    } catch {
      throw new OutboundError('not a URL');
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new OutboundError('only http(s) is fetched');
    if (RESERVED_HOST.test(u.hostname)) throw new OutboundError(`no such host: ${u.hostname}`);
    let res: Response;
    try {
      res = await fetch(u, { redirect: 'manual', signal, headers: { accept: opts.accept, 'user-agent': 'ZulipReferenceServer/1.0 (media proxy)' } });
    } catch (e) {
      throw new OutboundError(signal.aborted ? 'timed out' : `no answer: ${e instanceof Error ? e.message : String(e)}`);
    }
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location !== null) {
      await res.body?.cancel();
      target = new URL(location, u).href;
      continue;
    }
    const declared = Number(res.headers.get('content-length') ?? '0');
    if (declared > opts.maxBytes) {
      await res.body?.cancel();
      throw new OutboundError('too large');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body ?? []) {
        size += chunk.length;
        if (size > opts.maxBytes) throw new OutboundError('too large');
        chunks.push(Buffer.from(chunk));
      }
    } catch (e) {
      if (e instanceof OutboundError) throw e;
      throw new OutboundError(signal.aborted ? 'timed out' : 'the answer broke off');
    }
    return { status: res.status, contentType: (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase(), body: Buffer.concat(chunks) };
  }
  throw new OutboundError('too many redirects');
}
