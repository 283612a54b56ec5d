/**
 * Files attached to a composer (Zulip's upload button, paste and drop): each is copied to the
 * engine (core/stage-file.ts) and its upload queued at once (`uploadFile`), online or not; the
 * message names them when it is sent (`sendMessage`'s `uploads`), and is sent after they land. A
 * file removed before sending is discarded from the outbox (its copy goes with it). The
 * organization's `max_file_upload_size_mib` is checked by the engine before anything is queued,
 * and its refusal shown in words.
 */
import { createSignal } from 'solid-js';
import type { Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { stagedImageSrc, stageFile } from '../core/stage-file.js';

export interface Attached {
  /** What the send names it by (negative: the upload's local id). */
  readonly uploadId: number;
  readonly outboxId: number;
  readonly name: string;
  readonly size: number;
  /** Where the compose preview shows it from, for an image. */
  readonly src: string | undefined;
}

/** Images a browser shows (what the preview may show from the local copy). */
export const isImageType = (type: string) => /^image\/(png|jpeg|gif|webp)$/.test(type);

/**
 * A file's name as uploaded: a pasted image carries a generic one (`image.png`), which Zulip web
 * names after the time it was pasted; names from the disk are kept.
 */
export function uploadName(file: { name: string; type: string }, pasted: boolean, now: Date): string {
  if (!pasted && file.name !== '') return file.name;
  const ext = /^image\/(png|jpeg|gif|webp)$/.exec(file.type)?.[1]?.replace('jpeg', 'jpg') ?? 'bin';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `pasted-image-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}.${ext}`;
}

/** The files a paste or a drop carries (none: a plain-text paste, which the textarea handles). */
export function filesOf(data: DataTransfer | null): File[] {
  if (!data) return [];
  return [...data.files];
}

export function createAttachments(deps: { bridge: Bridge; discard(outboxId: number): Promise<void>; onError(message: string | null): void }) {
  const [list, setList] = createSignal<readonly Attached[]>([]);
  const [staging, setStaging] = createSignal(0);

  async function addOne(file: File, pasted: boolean): Promise<void> {
    const name = uploadName(file, pasted, new Date());
    const type = file.type || 'application/octet-stream';
    const staged = await stageFile(file);
    const res = await deps.bridge.invoke('uploadFile', { file: staged.file, filename: name, mime_type: type, size: staged.size });
    const src = isImageType(type) ? stagedImageSrc(staged.file) : undefined;
    setList((l) => [...l, { uploadId: res.upload_id, outboxId: res.outbox_id, name, size: staged.size, src }]);
  }

  /** Copy and queue each file, in order; a refusal (over the limit) is said and the rest go on. */
  async function add(files: readonly File[], pasted = false): Promise<void> {
    setStaging((n) => n + files.length);
    deps.onError(null);
    for (const f of files) {
      try {
        await addOne(f, pasted);
      } catch (e) {
        deps.onError(`“${f.name || 'The pasted image'}” was not attached. ${errorText(e)}`);
      } finally {
        setStaging((n) => n - 1);
      }
    }
  }

  return {
    list,
    /** Files being copied to the engine right now. */
    staging,
    add,
    /** Take the file out of the message; its queued upload is discarded. */
    remove(a: Attached) {
      setList((l) => l.filter((x) => x !== a));
      deps.discard(a.outboxId).catch((e: unknown) => deps.onError(errorText(e)));
    },
    /** The files the message sends, taken out of the composer. */
    take(): readonly Attached[] {
      const out = list();
      setList([]);
      return out;
    },
    /** A send refused before anything was queued: the files come back. */
    restore(files: readonly Attached[]) {
      setList((l) => [...files, ...l]);
    },
  };
}

export type Attachments = ReturnType<typeof createAttachments>;

/** A text field's paste and drop of files (the composer's and the message editor's): each is attached. */
export function fileDropHandlers(files: Attachments) {
  return {
    onPaste(e: ClipboardEvent) {
      const pasted = filesOf(e.clipboardData);
      if (pasted.length === 0) return;
      e.preventDefault();
      void files.add(pasted, true);
    },
    onDragOver: (e: DragEvent) => e.dataTransfer?.types.includes('Files') && e.preventDefault(),
    onDrop(e: DragEvent) {
      const dropped = filesOf(e.dataTransfer);
      if (dropped.length === 0) return;
      e.preventDefault();
      void files.add(dropped);
    },
  };
}
