/**
 * The outbox store's upload progress (data/upload-progress.ts): the engine's `upload_progress`
 * events kept per upload by its local id, the latest report winning; nothing heard after dispose.
 */
import { describe, expect, it } from 'vitest';
import { createUploadProgress } from '../../../renderer/src/data/upload-progress.js';
import type { EngineEvent } from '../../../sync/protocol/index.js';

describe('upload progress', () => {
  it('keeps the latest report per upload, and stops listening when disposed', () => {
    const listeners = new Set<(e: EngineEvent) => void>();
    const emit = (e: EngineEvent) => [...listeners].forEach((l) => l(e));
    const p = createUploadProgress({
      subscribe(l) {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    });
    expect(p.get(-3)).toBeUndefined();
    emit({ type: 'upload_progress', upload_id: -3, sent: 65_536, total: 200_000 });
    emit({ type: 'upload_progress', upload_id: -4, sent: 10, total: 10 });
    emit({ type: 'areas', areas: ['outbox'] });
    emit({ type: 'upload_progress', upload_id: -3, sent: 131_072, total: 200_000 });
    expect(p.get(-3)).toEqual({ sent: 131_072, total: 200_000 });
    expect(p.get(-4)).toEqual({ sent: 10, total: 10 });
    p.dispose();
    expect(listeners.size).toBe(0);
    emit({ type: 'upload_progress', upload_id: -3, sent: 200_000, total: 200_000 });
    expect(p.get(-3)).toEqual({ sent: 131_072, total: 200_000 });
  });
});
