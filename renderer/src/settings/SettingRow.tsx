/**
 * One personal setting: its control (switch, number or list), hint and state: the engine's value
 * shows at once; "Not saved yet" while its outbox row waits; a refusal with Retry and Discard.
 */
import { createMemo, createSignal, For, Match, Show, Switch } from 'solid-js';
import type { Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { Button } from '../kit/Button.js';
import { useOutbox } from '../data/outbox.js';
import { useSettings } from '../data/settings.js';
import { choicesFor, currentValue, parseInput, settingMark, settingLabel, type SettingControl, type SettingValue } from './settings-model.js';

const TIME_ZONES: readonly string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

export function SettingRow(props: { control: SettingControl; bridge: Bridge }) {
  const settings = useSettings();
  const outbox = useOutbox();
  const c = props.control;
  const id = `setting-${c.name}`;
  const value = () => currentValue(c, settings.raw());
  const choices = createMemo(() => choicesFor(c, settings.raw(), { timeZones: TIME_ZONES }));
  const mark = () => settingMark(outbox.state.rows, c.name);
  const failed = () => {
    const m = mark();
    return m?.status === 'failed' ? m : null;
  };
  const [error, setError] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);

  const change = (input: string | boolean) => {
    const parsed = parseInput(c, input, choices());
    if (!parsed.ok) return setError(parsed.error);
    setError(null);
    void save(parsed.value);
  };
  const save = async (v: SettingValue) => {
    try {
      await props.bridge.invoke('updateSettings', { settings: { [c.name]: v } });
    } catch (e) {
      setError(errorText(e));
    } finally {
      // The engine applied it locally (or refused it): show its value, and the row behind it.
      void settings.refresh();
      void outbox.refresh();
    }
  };
  const act = async (f: () => Promise<void>) => {
    setBusy(true);
    try {
      await f();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
      void settings.refresh();
    }
  };

  const describedBy = () => [c.hint ? `${id}-hint` : '', mark() || error() ? `${id}-state` : ''].filter(Boolean).join(' ') || undefined;
  const control = () => {
    switch (c.kind) {
      case 'switch':
        return <input id={id} type="checkbox" checked={value() === true} aria-describedby={describedBy()} onChange={(e) => change(e.currentTarget.checked)} />;
      case 'number':
        return (
          <span class="setting-number">
            <input
              id={id}
              type="number"
              inputmode="numeric"
              min={c.min}
              max={c.max}
              step={1}
              value={typeof value() === 'number' ? String(value()) : ''}
              aria-describedby={describedBy()}
              aria-invalid={error() !== null ? 'true' : undefined}
              onChange={(e) => change(e.currentTarget.value)}
            />
            <Show when={c.unit}>
              <span class="setting-unit">{c.unit}</span>
            </Show>
          </span>
        );
      default:
        return (
          <select id={id} value={String(value() ?? '')} aria-describedby={describedBy()} onChange={(e) => change(e.currentTarget.value)}>
            <Show when={value() === undefined || value() === null}>
              <option value="">Not set</option>
            </Show>
            <For each={choices()}>{(o) => <option value={String(o.value)}>{o.label}</option>}</For>
          </select>
        );
    }
  };

  return (
    <div class="setting-row" classList={{ 'setting-check': c.kind === 'switch', 'setting-failed': mark()?.status === 'failed' }} data-setting={c.name}>
      <Show
        when={c.kind === 'switch'}
        fallback={
          <>
            <label class="setting-label" for={id}>
              {c.label}
            </label>
            {control()}
          </>
        }
      >
        {control()}
        <label class="setting-label" for={id}>
          {c.label}
        </label>
      </Show>
      <Show when={c.hint}>
        <p class="hint setting-hint" id={`${id}-hint`}>
          {c.hint}
        </p>
      </Show>
      <div class="setting-state">
        <Switch>
          <Match when={error()}>
            {(e) => (
              <span class="error" id={`${id}-state`}>
                {e()}
              </span>
            )}
          </Match>
          <Match when={mark()?.status === 'pending'}>
            <span class="badge badge-pending" id={`${id}-state`}>
              Not saved yet
            </span>
          </Match>
          <Match when={failed()}>
            {(m) => (
              <>
                <span class="error" id={`${id}-state`}>
                  Not saved: {m().message}
                  {m().others.length > 0 ? ` (together with ${m().others.map(settingLabel).join(', ')})` : ''}
                </span>
                <span class="setting-actions">
                  <Button size="small" disabled={busy()} aria-label={`Retry saving ${c.label}`} onClick={() => void act(() => outbox.retry(m().outboxId))}>
                    Retry
                  </Button>
                  <Button size="small" variant="quiet" disabled={busy()} aria-label={`Discard the change to ${c.label}`} onClick={() => void act(() => outbox.discard(m().outboxId))}>
                    Discard
                  </Button>
                </span>
              </>
            )}
          </Match>
        </Switch>
      </div>
    </div>
  );
}
