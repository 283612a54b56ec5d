/** The wire shapes of the network settings (common/network-settings.ts) and their commands. */
import * as z from 'zod';
import type { CertificateInfo, NetworkSettings, ProxySetting, TrustedCertificate } from '../../common/network-settings.js';

export const proxySettingSchema: z.ZodType<ProxySetting> = z.lazy(() => z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('direct') }),
  z.object({ mode: z.literal('system') }),
  z.object({ mode: z.literal('manual'), url: z.string().regex(/^https?:\/\/[^\s]+$/, 'a proxy URL starting with http:// or https://'), bypass: z.string().max(2000) }),
  z.object({ mode: z.literal('pac'), url: z.string().regex(/^(https?|file):\/\/[^\s]+$/, 'a PAC file URL (http://, https:// or file://)') }),
]));

export const trustedCertificateSchema: z.ZodType<TrustedCertificate> = z.lazy(() => z.object({
  origin: z.string().nullable(),
  pem: z.string().max(20_000),
  fingerprint: z.string().max(200),
  subject: z.string().max(2000),
}));

export const networkSettingsSchema: z.ZodType<NetworkSettings> = z.object({
  proxy: proxySettingSchema,
  certificates: z.array(trustedCertificateSchema).max(50),
});

export const certificateInfoSchema: z.ZodType<CertificateInfo> = z.lazy(() => z.object({
  pem: z.string(),
  fingerprint: z.string(),
  subject: z.string(),
  issuer: z.string(),
  valid_from: z.string(),
  valid_to: z.string(),
  problem: z.string().nullable(),
}));

const realm = z.object({ realm_url: z.string().min(1).max(2000) });

/** The network operations, merged into the contract's operation table. */
export const networkOperations = {
  /** The proxy and the certificates trusted beyond the system's. */
  networkSettings: { request: z.object({}), response: networkSettingsSchema },
  /** Replace them; the open account reconnects with them. */
  setNetworkSettings: { request: networkSettingsSchema, response: networkSettingsSchema },
  /** Read a server's certificate without trusting it, for the person to decide (fingerprint, names, dates, why it is not trusted). */
  peekCertificate: { request: realm, response: certificateInfoSchema },
  /**
   * Trust the certificate of that server the person saw: refused unless the server still presents
   * the one with `fingerprint`.
   */
  trustCertificate: { request: z.lazy(() => realm.extend({ fingerprint: z.string().min(1).max(200) })), response: networkSettingsSchema },
  /** Trust a certificate authority given as PEM text (an organisation's own); refused when it is no certificate. */
  addCertificateAuthority: { request: z.lazy(() => z.object({ pem: z.string().min(1).max(20_000) })), response: networkSettingsSchema },
} as const;
