/**
 * The message mutation kinds, for the session's kind registry. Each keeps its name and v1 shape
 * for as long as rows of it may be queued (architecture rule 7); a new shape is added beside it.
 */
import { runtimeKind, type RuntimeKind } from '../kinds.js';
import { messageContentEdit } from './message-content-edit.js';
import { messageMove } from './message-move.js';

export { messageContentEdit, messageMove };

export const messageKinds: readonly RuntimeKind[] = [runtimeKind(messageContentEdit), runtimeKind(messageMove)];
