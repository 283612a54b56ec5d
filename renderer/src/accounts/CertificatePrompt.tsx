/**
 * A server whose certificate this computer does not trust (self-signed, or from an authority it
 * does not know): the sign-in screen offers to show the certificate (engine `peekCertificate`: its
 * SHA-256 fingerprint, names and dates) and, only after that, to trust it for this server
 * (`trustCertificate`, refused if the server meanwhile presents another one) and sign in again.
 */
import { Show } from 'solid-js';
import type { CertificateInfo } from '../../../common/network-settings.js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { Button } from '../kit/Button.js';
import { ErrorText } from '../kit/ErrorText.js';
import { useCommand } from '../kit/command.js';

export function CertificatePrompt(props: { realmUrl: string; onTrusted(): void; bridge?: Bridge }) {
  const bridge = props.bridge ?? defaultBridge;
  const show = useCommand(() => bridge.invoke('peekCertificate', { realm_url: props.realmUrl }));
  const trust = useCommand(async (c: CertificateInfo) => {
    await bridge.invoke('trustCertificate', { realm_url: props.realmUrl, fingerprint: c.fingerprint });
    props.onTrusted();
  });
  const busy = () => show.busy() || trust.busy();
  return (
    <div class="certificate-prompt" role="group" aria-labelledby="certificate-title">
      <h3 id="certificate-title">The server's certificate is not trusted</h3>
      <Show
        when={show.result()}
        fallback={
          <>
            <p>If this is your organisation's own server, compare its certificate with the fingerprint your administrator gave you.</p>
            <Button onClick={() => void show.run()} disabled={busy()}>
              Show the certificate
            </Button>
          </>
        }
      >
        {(c) => (
          <>
            <dl class="certificate-facts">
              <dt>Issued to</dt>
              <dd>{c().subject}</dd>
              <dt>Issued by</dt>
              <dd>{c().issuer}</dd>
              <dt>Valid</dt>
              <dd>
                {c().valid_from} to {c().valid_to}
              </dd>
              <dt>SHA-256 fingerprint</dt>
              <dd class="certificate-fingerprint">{c().fingerprint}</dd>
            </dl>
            <p class="hint">Trust it only if this fingerprint is the one your administrator gave you: anyone between you and the server could present a certificate of their own.</p>
            <Button variant="primary" onClick={() => void trust.run(c())} disabled={busy()}>
              Trust this certificate and sign in
            </Button>
          </>
        )}
      </Show>
      <ErrorText message={show.error() ?? trust.error()} />
    </div>
  );
}
