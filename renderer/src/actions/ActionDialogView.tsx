/** The one open action dialog, by kind. */
import type { Bridge } from '../core/bridge.js';
import type { MoveRequest } from '../shared/move-form.js';
import { DeleteMessageDialog, DeleteTopicDialog, MoveDialog } from './dialogs.js';
import { HistoryDialog, SourceDialog } from './message-dialogs.js';
import { ReadReceiptsDialog } from './ReadReceiptsDialog.js';
import type { ActionDialog } from './store.js';

export function ActionDialogView(props: { dialog: ActionDialog; bridge: Bridge; onMoved(req: MoveRequest, from: { channelId: number; topic: string }): void; onClose(): void }) {
  const d = props.dialog;
  const bridge = props.bridge;
  const store = { close: () => props.onClose(), moved: (req: MoveRequest, from: { channelId: number; topic: string }) => props.onMoved(req, from) };
  switch (d.kind) {
    case 'source':
      return <SourceDialog message={d.message} bridge={bridge} onClose={store.close} />;
    case 'history':
      return <HistoryDialog message={d.message} bridge={bridge} onClose={store.close} />;
    case 'read-receipts':
      return <ReadReceiptsDialog message={d.message} bridge={bridge} onClose={store.close} />;
    case 'delete-message':
      return <DeleteMessageDialog message={d.message} bridge={bridge} onClose={store.close} />;
    case 'move-message':
      return (
        <MoveDialog
          title="Move messages"
          submit="Move"
          messageId={d.message.id}
          from={{ channelId: d.message.channel_id ?? 0, topic: d.message.topic }}
          propagate={d.propagate}
          channel
          bridge={bridge}
          onMoved={store.moved}
          onClose={store.close}
        />
      );
    case 'move-topic':
      return (
        <MoveDialog
          title={d.mode === 'rename' ? 'Rename topic' : 'Move topic'}
          submit={d.mode === 'rename' ? 'Rename' : 'Move'}
          messageId={d.messageId}
          from={{ channelId: d.channelId, topic: d.topic }}
          propagate="change_all"
          channel={d.mode === 'move'}
          bridge={bridge}
          onMoved={store.moved}
          onClose={store.close}
        />
      );
    case 'delete-topic':
      return <DeleteTopicDialog channelId={d.channelId} topic={d.topic} bridge={bridge} onClose={store.close} />;
  }
}
