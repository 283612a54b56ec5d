/**
 * The notification and tray that both stand-ins of `electron` hand to main/ (the unit tests' fake,
 * test/main/fake-electron.ts, and the harness's, stand-in.ts): what main set on them, and the
 * user's clicks. Each stand-in subclasses these to record the instances it makes.
 */
import { EventEmitter } from 'node:events';

export class RecordedNotification extends EventEmitter implements Pick<Electron.Notification, 'show' | 'close' | 'title' | 'body' | 'silent'> {
  title: string;
  body: string;
  silent: boolean;
  shown = false;
  closed = false;
  constructor(readonly options: Electron.NotificationConstructorOptions = {}) {
    super();
    this.title = options.title ?? '';
    this.body = options.body ?? '';
    this.silent = options.silent ?? false;
  }
  show() {
    this.shown = true;
    this.emit('show', {});
  }
  close() {
    this.closed = true;
    this.emit('close', {});
  }
  /** The user clicks it. */
  click() {
    this.emit('click', {});
  }
}

/** A tray icon; `M` is the stand-in's menu. */
export class RecordedTray<Image, M> extends EventEmitter {
  tooltip = '';
  title = '';
  menu: M | null = null;
  destroyed = false;
  constructor(public image: Image) {
    super();
  }
  setToolTip(toolTip: string) {
    this.tooltip = toolTip;
  }
  setTitle(title: string) {
    this.title = title;
  }
  setContextMenu(menu: M | null) {
    this.menu = menu;
  }
  setImage(image: Image) {
    this.image = image;
  }
  destroy() {
    this.destroyed = true;
  }
  isDestroyed() {
    return this.destroyed;
  }
}
