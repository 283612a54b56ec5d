/**
 * One WebSocket = one engine client. The page sends `invoke` frames; the host answers each with a
 * `result` frame carrying the same id and pushes engine events as `event` frames. The host parses
 * only the frame envelope: the engine service parses every operation's payload itself.
 *
 * A frame that is not JSON, or not an invoke frame and without an id to answer to, closes the
 * socket with 1008 (policy violation): the page is ours, so such a frame means a bug or an intruder.
 */
import type { RawData, WebSocket } from 'ws';
import { clientFrameSchema, type HostFrame } from '../../sync/protocol/rpc.js';
import type { EngineService } from '../../sync/service/engine-service.js';

/** Largest frame accepted from a page (a message draft is far smaller). */
export const MAX_FRAME_BYTES = 1024 * 1024;
/** Invocations one socket may have running at once; more are answered UNAVAILABLE at once. */
export const MAX_IN_FLIGHT = 256;

export function bridgeSocket(ws: WebSocket, service: EngineService): void {
  const send = (frame: HostFrame) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
  };
  const client = service.connect((event) => send({ type: 'event', event }));
  let inFlight = 0;
  let closed = false;

  ws.on('message', (data: RawData, isBinary: boolean) => {
    const json = isBinary ? undefined : parseJson(rawText(data));
    if (json === undefined) {
      ws.close(1008, 'frames are JSON text');
      return;
    }
    const frame = clientFrameSchema.safeParse(json);
    if (!frame.success) {
      const id = idOf(json);
      if (id === undefined) ws.close(1008, 'not an invoke frame');
      else send({ type: 'result', id, result: { ok: false, error: { code: 'INVALID_REQUEST', message: 'not an invoke frame: {type: "invoke", id, name, request}' } } });
      return;
    }
    const { id, name, request } = frame.data;
    if (inFlight >= MAX_IN_FLIGHT) {
      send({ type: 'result', id, result: { ok: false, error: { code: 'UNAVAILABLE', message: `more than ${MAX_IN_FLIGHT} requests in flight` } } });
      return;
    }
    inFlight++;
    void client.invoke(name, request).then((result) => {
      inFlight--;
      if (!closed) send({ type: 'result', id, result });
    });
  });
  ws.on('close', () => {
    closed = true;
    client.close();
  });
  // An error is followed by 'close'; listening keeps it from becoming an uncaught exception.
  ws.on('error', () => undefined);
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  return Buffer.from(new Uint8Array(data)).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function idOf(json: unknown): number | undefined {
  if (typeof json !== 'object' || json === null || !('id' in json)) return undefined;
  const id = json.id;
  return typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : undefined;
}
