/** A composer's attached files: names, queueing each (a refusal said in words, the rest go on), taking and giving them back, removing one. */
import { describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../../renderer/src/core/bridge-error.js';
import type { Bridge } from '../../../renderer/src/core/bridge.js';

vi.mock('../../../renderer/src/core/stage-file.js', () => ({
  stageFile: vi.fn(async (f: { size: number; name: string }) => {
    if (f.name === 'huge.bin') throw new BridgeError('INVALID_REQUEST', "The file is larger than this organization's limit of 25 MiB per file.");
    return { file: 'a'.repeat(32), size: f.size };
  }),
  stagedImageSrc: (file: string) => `/outbox-files/${file}?k=key`,
}));

const { createAttachments, uploadName } = await import('../../../renderer/src/compose/attachments.js');

const file = (name: string, type: string, size = 3) => ({ name, type, size }) as unknown as File;

describe('attachments', () => {
  it('a pasted image is named after the time it was pasted; a file from the disk keeps its name', () => {
    const at = new Date(2026, 10, 26, 9, 5, 7);
    expect(uploadName({ name: 'image.png', type: 'image/png' }, true, at)).toBe('pasted-image-2026-11-26-090507.png');
    expect(uploadName({ name: 'image.jpg', type: 'image/jpeg' }, true, at)).toBe('pasted-image-2026-11-26-090507.jpg');
    expect(uploadName({ name: 'plan.pdf', type: 'application/pdf' }, false, at)).toBe('plan.pdf');
  });

  it('queues each file; a refusal is said in words and the others are attached; take, restore and remove', async () => {
    const calls: unknown[] = [];
    let next = 1;
    const bridge = {
      invoke: vi.fn(async (name: string, req: unknown) => {
        calls.push([name, req]);
        return { outbox_id: 40 + next, outcome: 'added', upload_id: -next++ };
      }),
    } as unknown as Bridge;
    const discarded: number[] = [];
    const errors: Array<string | null> = [];
    const a = createAttachments({ bridge, discard: async (id) => void discarded.push(id), onError: (m) => errors.push(m) });
    await a.add([file('plan.pdf', 'application/pdf'), file('huge.bin', ''), file('photo.png', 'image/png', 5)]);
    expect(a.staging()).toBe(0);
    expect(a.list().map((f) => [f.name, f.uploadId, f.outboxId, f.size, f.src])).toEqual([
      ['plan.pdf', -1, 41, 3, undefined],
      ['photo.png', -2, 42, 5, `/outbox-files/${'a'.repeat(32)}?k=key`],
    ]);
    expect(calls).toEqual([
      ['uploadFile', { file: 'a'.repeat(32), filename: 'plan.pdf', mime_type: 'application/pdf', size: 3 }],
      ['uploadFile', { file: 'a'.repeat(32), filename: 'photo.png', mime_type: 'image/png', size: 5 }],
    ]);
    expect(errors.at(-1)).toMatch(/“huge.bin” was not attached\. .*larger than this organization's limit of 25 MiB/);

    const taken = a.take();
    expect(taken).toHaveLength(2);
    expect(a.list()).toEqual([]);
    a.restore(taken);
    expect(a.list()).toEqual(taken);
    a.remove(taken[0]!);
    expect(a.list().map((f) => f.name)).toEqual(['photo.png']);
    expect(discarded).toEqual([41]);
  });
});
