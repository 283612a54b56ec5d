/**
 * The Network tab: how the app reaches servers (engine `networkSettings` / `setNetworkSettings`,
 * kept on this computer for every account). The proxy: the system's, none, a PAC file or a manual
 * one (with hosts that bypass it); certificates trusted beyond the system's: servers trusted from
 * the sign-in screen by their fingerprint, and certificate authorities added here as PEM text. A
 * change reconnects the open account.
 */
import { createSignal, For, onMount, Show } from 'solid-js';
import type { NetworkSettings as Settings, ProxySetting } from '../../../common/network-settings.js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { Button } from '../kit/Button.js';
import { ErrorText } from '../kit/ErrorText.js';
import { useCommand } from '../kit/command.js';

type Mode = ProxySetting['mode'];
const MODES: ReadonlyArray<{ mode: Mode; label: string }> = [
  { mode: 'system', label: "Use the system's proxy settings" },
  { mode: 'direct', label: 'No proxy' },
  { mode: 'pac', label: 'Proxy auto-configuration (PAC) file' },
  { mode: 'manual', label: 'Manual proxy' },
];

export function NetworkSettings(props: { bridge?: Bridge }) {
  const bridge = props.bridge ?? defaultBridge;
  const [current, setCurrent] = createSignal<Settings | null>(null);
  const [mode, setMode] = createSignal<Mode>('system');
  const [url, setUrl] = createSignal('');
  const [bypass, setBypass] = createSignal('');
  const [pem, setPem] = createSignal('');
  const [saved, setSaved] = createSignal<string | null>(null);

  const show = (s: Settings) => {
    setCurrent(s);
    setMode(s.proxy.mode);
    setUrl(s.proxy.mode === 'manual' || s.proxy.mode === 'pac' ? s.proxy.url : '');
    setBypass(s.proxy.mode === 'manual' ? s.proxy.bypass : '');
  };
  /** One change: the engine's answer shown, `done` said once it is saved. */
  const change = useCommand(async (done: string, f: () => Promise<Settings>) => {
    setSaved(null);
    show(await f());
    setSaved(done);
  });
  const busy = change.busy;
  onMount(() => void change.run('', () => bridge.invoke('networkSettings', {})));
  const proxy = (): ProxySetting => {
    const m = mode();
    return m === 'manual' ? { mode: m, url: url().trim(), bypass: bypass().trim() } : m === 'pac' ? { mode: m, url: url().trim() } : { mode: m };
  };
  const save = (certificates: Settings['certificates'], done: string) => change.run(done, () => bridge.invoke('setNetworkSettings', { proxy: proxy(), certificates: [...certificates] }));

  return (
    <>
      <fieldset class="screen-card settings-group">
        <legend>Proxy</legend>
        <div role="radiogroup" aria-label="Proxy" class="network-modes">
          <For each={MODES}>
            {(m) => (
              <label class="radio">
                <input type="radio" name="proxy-mode" value={m.mode} checked={mode() === m.mode} onChange={() => setMode(m.mode)} />
                {m.label}
              </label>
            )}
          </For>
        </div>
        <Show when={mode() === 'pac' || mode() === 'manual'}>
          <label class="field">
            <span>{mode() === 'pac' ? 'PAC file URL' : 'Proxy URL'}</span>
            <input type="text" inputMode="url" placeholder={mode() === 'pac' ? 'https://example.com/proxy.pac' : 'http://proxy.example.com:3128'} value={url()} onInput={(e) => setUrl(e.currentTarget.value)} />
          </label>
        </Show>
        <Show when={mode() === 'manual'}>
          <label class="field">
            <span>Hosts that bypass the proxy</span>
            <input type="text" placeholder="localhost, *.example.com" value={bypass()} onInput={(e) => setBypass(e.currentTarget.value)} />
          </label>
        </Show>
        <Show when={mode() === 'system'}>
          <p class="hint">The app uses the HTTPS_PROXY, HTTP_PROXY and NO_PROXY settings of your system; servers on this computer are always reached directly.</p>
        </Show>
        <div class="actions">
          <Button variant="primary" disabled={busy() || current() === null} onClick={() => void save(current()?.certificates ?? [], 'Proxy settings saved.')}>
            Save proxy settings
          </Button>
        </div>
      </fieldset>
      <fieldset class="screen-card settings-group">
        <legend>Trusted certificates</legend>
        <p class="hint">Certificates trusted on top of your system's: servers you trusted when signing in, and your organisation's certificate authorities. Host names are still checked.</p>
        <Show when={(current()?.certificates.length ?? 0) > 0} fallback={<p>None.</p>}>
          <ul class="network-certificates" aria-label="Trusted certificates">
            <For each={current()?.certificates ?? []}>
              {(c) => (
                <li>
                  <div>
                    <strong>{c.origin ?? 'Certificate authority'}</strong> <span class="hint">{c.subject}</span>
                  </div>
                  <code class="certificate-fingerprint">{c.fingerprint}</code>
                  <Button
                    size="small"
                    aria-label={`Remove ${c.origin ?? c.subject}`}
                    disabled={busy()}
                    onClick={() => void save((current()?.certificates ?? []).filter((x) => x !== c), 'Certificate removed.')}
                  >
                    Remove
                  </Button>
                </li>
              )}
            </For>
          </ul>
        </Show>
        <label class="field">
          <span>Add a certificate authority (PEM)</span>
          <textarea rows={4} placeholder="-----BEGIN CERTIFICATE-----" value={pem()} onInput={(e) => setPem(e.currentTarget.value)} />
        </label>
        <div class="actions">
          <Button
            disabled={busy() || pem().trim() === ''}
            onClick={() =>
              void change.run('Certificate authority added.', async () => {
                const s = await bridge.invoke('addCertificateAuthority', { pem: pem().trim() });
                setPem('');
                return s;
              })
            }
          >
            Add certificate authority
          </Button>
        </div>
      </fieldset>
      <ErrorText message={change.error()} />
      <Show when={saved()}>
        <p class="hint" role="status">
          {saved()}
        </p>
      </Show>
    </>
  );
}
