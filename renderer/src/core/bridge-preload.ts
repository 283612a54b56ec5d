/**
 * The Electron transport: the preload's `window.zulip` (invoke / subscribe / unsubscribe over IPC).
 * Whatever crosses is parsed with the contract's schemas here too; the preload checks nothing.
 */
import { engineEventSchema, type EngineEvent } from '../../../sync/protocol/commands.js';
import { rpcResultSchema, type RpcResult } from '../../../sync/protocol/rpc.js';
import { BridgeError } from './bridge-error.js';
import type { Transport } from './bridge.js';

/** The preload's API, as the main-process helper exposes it. */
export interface PreloadApi {
  invoke(name: string, request: unknown): Promise<unknown>;
  subscribe(listener: (event: unknown) => void): number;
  unsubscribe(id: number): void;
  /** The bytes of a file the user attached, to the engine's staging (answers an RpcResult). */
  stageUpload?(bytes: Uint8Array): Promise<unknown>;
  /** A file link: fetched by the engine, saved where the user says (answers an RpcResult around `{saved, reason}`). */
  saveUpload?(path: string): Promise<unknown>;
  /** The desktop app's own settings: `null` reads them, a patch changes them (answers an RpcResult around them). */
  desktopSettings?(patch: unknown): Promise<unknown>;
  /** Main asks the page to open a conversation (a desktop notification it showed was clicked). */
  onOpen?(listener: (target: unknown) => void): void;
  /** The updater: its state, a check, or "Restart to update" (answers an RpcResult around an UpdateStatus). */
  update?(action: string): Promise<unknown>;
  /** The updater's state as it changes. */
  onUpdateStatus?(listener: (status: unknown) => void): void;
}

export class PreloadTransport implements Transport {
  constructor(private readonly api: PreloadApi) {}

  async call(name: string, request: unknown): Promise<RpcResult> {
    const raw = await this.api.invoke(name, request);
    const r = rpcResultSchema.safeParse(raw);
    if (!r.success) throw new BridgeError('INTERNAL', `${name}: the host answered outside the contract`);
    return r.data;
  }

  onEvent(listener: (e: EngineEvent) => void): () => void {
    const id = this.api.subscribe((raw) => {
      const e = engineEventSchema.safeParse(raw);
      if (e.success) listener(e.data);
      else console.warn('bridge: dropped an event outside the contract');
    });
    return () => this.api.unsubscribe(id);
  }

  onConnection(): () => void {
    // IPC lives as long as the window: there is no host to lose.
    return () => undefined;
  }
}
