/** A group's name and description: queued (works offline), shown at once. */
import { createEffect, createSignal, on } from 'solid-js';
import type { Bridge } from '../core/bridge.js';
import { Button } from '../kit/Button.js';
import { ErrorText } from '../kit/ErrorText.js';
import { useCommand } from '../kit/command.js';
import { useToasts } from '../kit/toasts.js';
import type { Abilities, Group } from './group-rules.js';

export function GeneralSection(props: { group: Group; may: Abilities; describedBy: string; bridge: Bridge }) {
  const toasts = useToasts();
  const [name, setName] = createSignal(props.group.name);
  const [description, setDescription] = createSignal(props.group.description);
  const update = useCommand((req: { user_group_id: number; name?: string; description?: string }) => props.bridge.invoke('updateUserGroup', req));
  // A change from elsewhere (or a queued one applied) shows in an untouched field.
  createEffect(
    on(
      () => [props.group.name, props.group.description] as const,
      ([n, d], prev) => {
        if (prev && name().trim() === prev[0]) setName(n);
        if (prev && description() === prev[1]) setDescription(d);
      },
    ),
  );
  const disabled = () => !props.may.manage.ok;
  const changed = () => name().trim() !== props.group.name || description() !== props.group.description;
  const save = (e: Event) => {
    e.preventDefault();
    const n = name().trim();
    if (n === '') return update.fail('A group needs a name.');
    const req: { user_group_id: number; name?: string; description?: string } = { user_group_id: props.group.id };
    if (n !== props.group.name) req.name = n;
    if (description() !== props.group.description) req.description = description();
    void update.run(req).then((ok) => ok && toasts.show('Saved on this device; it goes to the server when it can.'));
  };
  return (
    <section class="screen-card group-section" aria-labelledby={`group-${props.group.id}-general`}>
      <h2 id={`group-${props.group.id}-general`}>General</h2>
      <form class="group-general" onSubmit={save}>
        <label class="group-field">
          <span class="group-label">Group name</span>
          <input value={name()} maxLength={100} onInput={(e) => setName(e.currentTarget.value)} disabled={disabled()} aria-describedby={disabled() ? props.describedBy : undefined} />
        </label>
        <label class="group-field">
          <span class="group-label">Group description</span>
          <textarea rows={2} value={description()} onInput={(e) => setDescription(e.currentTarget.value)} disabled={disabled()} aria-describedby={disabled() ? props.describedBy : undefined} />
        </label>
        <ErrorText message={update.error()} />
        <div>
          <Button type="submit" variant="primary" disabled={disabled() || !changed()} aria-describedby={disabled() ? props.describedBy : undefined}>
            Save name and description
          </Button>
        </div>
      </form>
    </section>
  );
}
