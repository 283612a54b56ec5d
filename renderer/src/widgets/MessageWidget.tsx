/**
 * A message's poll or to-do list (Zulip's widgets), shown instead of its text as Zulip web shows
 * them: the poll's question, its options with their votes and voters, a vote button each and a
 * field adding an option, the author editing the question; the to-do list's title, its tasks with
 * a checkbox each and fields adding a task. Every interaction is queued (`sendSubmessage`), so it
 * shows at once, offline too; what is not yet on the server carries the pending clock.
 */
import { createMemo, createSignal, For, Index, Match, Show, Switch, type JSX } from 'solid-js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import { bridge } from '../core/bridge.js';
import type { OperationRequest } from '../core/operations.js';
import { useUsers } from '../data/users.js';
import { Button } from '../kit/Button.js';
import { ErrorText } from '../kit/ErrorText.js';
import { useCommand } from '../kit/command.js';
import { voteFor, voteLabel, voterNames, widgetOf, type Poll, type Todo } from './widget-data.js';
import './widgets.css';

type WidgetEvent = OperationRequest<'sendSubmessage'>['event'];

/** The widget of the message, or nothing (the caller shows the message's text). */
export function MessageWidget(props: { message: LocalMessage; ownUserId: number | null; fallback: JSX.Element }) {
  const widget = createMemo(() => widgetOf(props.message.submessages, props.ownUserId));
  const command = useCommand((event: WidgetEvent) => bridge.invoke('sendSubmessage', { message_id: props.message.id, event }));
  const send = (event: WidgetEvent) => void command.run(event);
  return (
    <Switch fallback={props.fallback}>
      <Match when={widget()?.kind === 'poll' && (widget() as Poll)}>
        {(p) => <PollView poll={p()} ownUserId={props.ownUserId} send={send} error={command.error()} />}
      </Match>
      <Match when={widget()?.kind === 'todo' && (widget() as Todo)}>
        {(t) => <TodoView todo={t()} ownUserId={props.ownUserId} send={send} error={command.error()} />}
      </Match>
    </Switch>
  );
}

interface ViewProps {
  ownUserId: number | null;
  send(event: WidgetEvent): void;
  error: string | null;
}

/** The clock of a change not yet on the server (the outbox's marker, small). */
function Pending() {
  return (
    <span class="widget-pending" title="Not yet on the server">
      <span class="clock" aria-hidden="true" />
      <span class="visually-hidden">(not yet sent)</span>
    </span>
  );
}

/** The author's editor of a poll's question or a list's title: a button, then a field with Save and Cancel. */
function TitleEditor(props: { label: string; value: string; onSave(v: string): void }) {
  const [text, setText] = createSignal<string | null>(null);
  const save = (e: SubmitEvent) => {
    e.preventDefault();
    const v = text()?.trim() ?? '';
    setText(null);
    if (v !== props.value) props.onSave(v);
  };
  return (
    <Show
      when={text() !== null}
      fallback={
        <Button variant="quiet" size="small" class="widget-edit" onClick={() => setText(props.value)}>
          Edit {props.label}
        </Button>
      }
    >
      <form class="widget-row" onSubmit={save}>
        <input type="text" aria-label={props.label[0]!.toUpperCase() + props.label.slice(1)} value={text() ?? ''} onInput={(e) => setText(e.currentTarget.value)} ref={(el) => queueMicrotask(() => el.focus())} />
        <Button type="submit" size="small" variant="primary">
          Save
        </Button>
        <Button size="small" variant="quiet" onClick={() => setText(null)}>
          Cancel
        </Button>
      </form>
    </Show>
  );
}

/** What both widgets are: a titled group (the author may rename it), its list, a form adding to it, the last error. */
function Frame(props: {
  label: string;
  class: string;
  title: string;
  titlePending: boolean;
  /** The author's editor: what it edits ("question", "title"), or null for everyone else. */
  edits: string | null;
  titleValue: string;
  onRename(v: string): void;
  children: JSX.Element;
  /** The adding form's fields, its button and whether it can add now. */
  fields: readonly { label: string; value: string; set(v: string): void }[];
  addLabel: string;
  canAdd: boolean;
  onAdd(): void;
  error: string | null;
}) {
  const add = (e: SubmitEvent) => {
    e.preventDefault();
    if (props.canAdd) props.onAdd();
  };
  return (
    <div class={`widget ${props.class}`} role="group" aria-label={props.label}>
      <div class="widget-header">
        <h4 class="widget-title">
          {props.title}
          <Show when={props.titlePending}>
            <Pending />
          </Show>
        </h4>
        <Show when={props.edits}>{(what) => <TitleEditor label={what()} value={props.titleValue} onSave={(v) => props.onRename(v)} />}</Show>
      </div>
      <ul class="widget-list">{props.children}</ul>
      <form class="widget-row" onSubmit={add}>
        {/* By position: the fields are rebuilt as they change, their inputs (and focus) stay. */}
        <Index each={props.fields}>{(f) => <input type="text" placeholder={f().label} aria-label={f().label} value={f().value} onInput={(e) => f().set(e.currentTarget.value)} />}</Index>
        <Button type="submit" size="small" disabled={!props.canAdd}>
          {props.addLabel}
        </Button>
      </form>
      <ErrorText message={props.error} />
    </div>
  );
}

function PollView(props: ViewProps & { poll: Poll }) {
  const users = useUsers();
  const name = (id: number) => users.byId().get(id)?.full_name;
  const [option, setOption] = createSignal('');
  const author = () => props.ownUserId === props.poll.authorId;
  const text = () => option().trim();
  return (
    <Frame
      label="Poll"
      class="poll-widget"
      title={props.poll.question || (author() ? 'Add a question' : 'We are about to have a poll. Please wait for the question.')}
      titlePending={props.poll.questionPending}
      edits={author() ? 'question' : null}
      titleValue={props.poll.question}
      onRename={(question) => props.send({ type: 'question', question })}
      fields={[{ label: 'New option', value: option(), set: setOption }]}
      addLabel="Add option"
      canAdd={text() !== '' && !props.poll.options.some((o) => o.text === text())}
      onAdd={() => {
        props.send({ type: 'new_option', idx: props.poll.nextIdx, option: text() });
        setOption('');
      }}
      error={props.error}
    >
      <For each={props.poll.options}>
        {(o) => {
          const mine = () => props.ownUserId !== null && o.voters.includes(props.ownUserId);
          const names = () => voterNames(o, name);
          return (
            <li class="poll-option" classList={{ 'is-pending': o.pending }}>
              <button
                type="button"
                class="poll-vote"
                classList={{ mine: mine() }}
                aria-pressed={mine()}
                aria-label={voteLabel(o)}
                title={names() || 'No votes yet'}
                onClick={() => props.send({ type: 'vote', key: o.key, vote: voteFor(o, props.ownUserId) })}
              >
                {o.voters.length}
              </button>
              <span class="poll-option-text">{o.text}</span>
              <Show when={names()}>
                <span class="poll-names">({names()})</span>
              </Show>
              <Show when={o.pending}>
                <Pending />
              </Show>
            </li>
          );
        }}
      </For>
    </Frame>
  );
}

function TodoView(props: ViewProps & { todo: Todo }) {
  const [task, setTask] = createSignal('');
  const [desc, setDesc] = createSignal('');
  const name = () => task().trim();
  return (
    <Frame
      label="To-do list"
      class="todo-widget"
      title={props.todo.title || 'Task list'}
      titlePending={props.todo.titlePending}
      edits={props.ownUserId === props.todo.authorId ? 'title' : null}
      titleValue={props.todo.title}
      onRename={(title) => props.send({ type: 'new_task_list_title', title })}
      fields={[
        { label: 'New task', value: task(), set: setTask },
        { label: 'Description', value: desc(), set: setDesc },
      ]}
      addLabel="Add task"
      canAdd={name() !== '' && !props.todo.tasks.some((t) => t.task === name())}
      onAdd={() => {
        props.send({ type: 'new_task', key: props.todo.nextKey, task: name(), desc: desc().trim(), completed: false });
        setTask('');
        setDesc('');
      }}
      error={props.error}
    >
      <For each={props.todo.tasks}>
        {(t) => (
          <li class="todo-task" classList={{ 'is-pending': t.pending, done: t.completed }}>
            <label>
              <input
                type="checkbox"
                checked={t.completed}
                onClick={(e) => {
                  // The box shows the list's state, which the queued strike changes: not the click.
                  e.preventDefault();
                  props.send({ type: 'strike', key: t.key });
                }}
              />
              <span class="todo-text">
                <strong>{t.task}</strong>
                <Show when={t.desc}>: {t.desc}</Show>
              </span>
            </label>
            <Show when={t.pending}>
              <Pending />
            </Show>
          </li>
        )}
      </For>
    </Frame>
  );
}
