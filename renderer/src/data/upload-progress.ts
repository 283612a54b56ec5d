/**
 * How far each queued upload's request went, from the engine's pushed `upload_progress` events
 * (by the upload's local id, as the `uploadFile` command answered it): the composer's bar reads
 * it while the upload's row is sending.
 */
import { createStore } from 'solid-js/store';
import type { EngineEvent } from '../../../sync/protocol/commands.js';

export interface UploadProgressStore {
  get(uploadId: number): { sent: number; total: number } | undefined;
  dispose(): void;
}

export function createUploadProgress(bridge: { subscribe(l: (e: EngineEvent) => void): () => void }): UploadProgressStore {
  const [progress, setProgress] = createStore<Record<number, { sent: number; total: number } | undefined>>({});
  const off = bridge.subscribe((e) => {
    if (e.type === 'upload_progress') setProgress(e.upload_id, { sent: e.sent, total: e.total });
  });
  return { get: (id) => progress[id], dispose: off };
}
