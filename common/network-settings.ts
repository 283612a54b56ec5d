/**
 * How the engine reaches servers (the types; the wire schemas are sync/protocol/network.ts, the
 * behaviour sync/api/network.ts): the proxy, and certificates trusted beyond the system's.
 */
export type ProxySetting =
  | { readonly mode: 'direct' }
  /** The environment's HTTPS_PROXY / HTTP_PROXY / NO_PROXY; loopback always direct. */
  | { readonly mode: 'system' }
  /** One proxy URL; `bypass`: hosts reached directly (comma-separated, `*.example.com`, `<local>`). */
  | { readonly mode: 'manual'; readonly url: string; readonly bypass: string }
  /** A proxy auto-config file's `FindProxyForURL`. */
  | { readonly mode: 'pac'; readonly url: string };

export interface TrustedCertificate {
  /** The server it was trusted for (`https://host[:port]`), or null for a CA added by hand. */
  readonly origin: string | null;
  readonly pem: string;
  /** SHA-256, colon-separated upper-case hex, as browsers show it. */
  readonly fingerprint: string;
  readonly subject: string;
}

export interface NetworkSettings {
  readonly proxy: ProxySetting;
  readonly certificates: readonly TrustedCertificate[];
}

export const DEFAULT_NETWORK: NetworkSettings = { proxy: { mode: 'system' }, certificates: [] };

/** A server's certificate as the person is shown it before trusting it. */
export interface CertificateInfo {
  readonly pem: string;
  readonly fingerprint: string;
  readonly subject: string;
  readonly issuer: string;
  readonly valid_from: string;
  readonly valid_to: string;
  /** Why it is not trusted (`DEPTH_ZERO_SELF_SIGNED_CERT`, …); null: it is. */
  readonly problem: string | null;
}
