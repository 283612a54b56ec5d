/** The kinds are registered once, and the contract names exactly them and the outbox's states. */
import { describe, expect, it } from 'vitest';
import { OUTBOX_ROW_STATES } from '../../../sync/protocol/outbox.js';
import { ALL_KINDS, CURRENT_KINDS, KIND_MODULES, KIND_NAMES, kindsForAreas, localEffectOf, QUEUED_COMMANDS, rowChange } from '../../../sync/outbox/registry.js';
import { OUTBOX_STATES } from '../../../sync/outbox/states.js';

describe('outbox kind registry', () => {
  it('derives the kind names and the command table from the one list', () => {
    expect(KIND_NAMES).toEqual(KIND_MODULES.map((m) => m.kind.kind));
    expect(new Set(KIND_NAMES).size).toBe(KIND_NAMES.length);
    expect(Object.keys(QUEUED_COMMANDS).sort()).toEqual(KIND_MODULES.flatMap((m) => Object.keys(m.commands)).sort());
    expect(Object.keys(QUEUED_COMMANDS).length).toBe(31);
  });

  it('the contract and the state machine share one list of states', () => {
    expect(OUTBOX_STATES).toBe(OUTBOX_ROW_STATES);
  });

  it('registers each name and version once; the current one is the newest', () => {
    const keys = ALL_KINDS.map((k) => `${k.kind}@${k.version}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of ALL_KINDS) expect(CURRENT_KINDS.get(k.kind)!.version).toBeGreaterThanOrEqual(k.version);
  });

  it('every kind with a local effect names what re-applies or undoes it', () => {
    const messageKinds = new Set<string>(['send_message', 'update_message_content', 'update_message_move', 'update_message_flags', 'add_or_remove_reaction', 'delete_message', 'send_submessage']);
    // An upload changes nothing the store shows (its message's echo names the file; the composer reads the row).
    const noEffect = new Set<string>(['upload_file']);
    for (const name of KIND_NAMES) {
      const e = localEffectOf(name);
      if (noEffect.has(name)) {
        expect(e, name).toBeUndefined();
        continue;
      }
      expect(e, name).toBeDefined();
      // A message kind marks messages; the others name store areas that re-apply them and a refetch to undo.
      expect(e!.areas.length > 0 || messageKinds.has(name), name).toBe(true);
      if (!messageKinds.has(name)) expect(e!.refetch.length, name).toBeGreaterThan(0);
    }
    expect(kindsForAreas(['saved_snippets']).sort()).toEqual(['create_saved_snippet', 'delete_saved_snippet', 'edit_saved_snippet'].sort());
  });

  it('only declared fields carry temporary ids', () => {
    const edit = CURRENT_KINDS.get('edit_saved_snippet')!;
    expect(edit.tempIdsIn({ saved_snippet_id: 'tmp-3', title: 'tmp-4', content: 'tmp-5' })).toEqual(['tmp-3']);
    expect(edit.withTempResolved({ saved_snippet_id: 'tmp-3', title: 'tmp-3', content: 'tmp-3' }, 'tmp-3', 9)).toEqual({ saved_snippet_id: 9, title: 'tmp-3', content: 'tmp-3' });
    const send = CURRENT_KINDS.get('send_message')!;
    expect(send.tempIdsIn({ local_id: '1', to: { type: 'channel', stream_id: 1, topic: 'tmp-1' }, content: 'tmp-1' })).toEqual([]);
    expect(send.createdTempId({ local_id: '1', to: { type: 'channel', stream_id: 1, topic: 'tmp-1' }, content: 'tmp-1' })).toBeUndefined();
    expect(CURRENT_KINDS.get('create_saved_snippet')!.createdTempId({ tmp_id: 'tmp-7', title: 'a', content: 'b' })).toBe('tmp-7');
  });

  it("reads a row's args for the contract with its kind's own schema, at the row's version", () => {
    expect(rowChange('update_settings', 1, { color_scheme: 2 })).toEqual({ kind: 'update_settings', args: { color_scheme: 2 } });
    expect(rowChange('update_settings', 1, {})).toEqual({ kind: 'update_settings', args: null });
    expect(rowChange('update_settings', 9, { color_scheme: 2 })).toEqual({ kind: 'update_settings', args: null });
    expect(rowChange('from_the_future', 1, { color_scheme: 2 })).toEqual({ kind: 'from_the_future', args: null });
  });

  it('puts the kinds whose effects overlap across entities in serial groups (sent one at a time, in order)', () => {
    const groups = new Map<string, string[]>();
    for (const k of CURRENT_KINDS.values()) if (k.serialGroup !== undefined) groups.set(k.serialGroup, [...(groups.get(k.serialGroup) ?? []), k.kind].sort());
    expect(Object.fromEntries(groups)).toEqual({ 'topic-moves': ['update_message_move'], 'read-state': ['update_message_flags_for_narrow', 'mark_topic_as_read', 'update_message_flags'].sort() });
  });
});
