/**
 * Spell check and the window's context menu. The desktop settings (main/desktop-settings.ts) turn
 * spell check on or off and pick its dictionaries among `session.availableSpellCheckerLanguages`
 * (Windows and macOS use the system's checker and ignore the list; Linux downloads Chromium's
 * Hunspell dictionaries). Right-clicking a misspelled word offers Chromium's suggestions
 * (`webContents.replaceMisspelling`) and "Add to dictionary"; in a text field Cut / Copy / Paste,
 * elsewhere Copy when there is a selection. Electron shows no context menu of its own.
 */
import { Menu, type BrowserWindow, type ContextMenuParams, type MenuItemConstructorOptions, type Session } from 'electron';
import type { DesktopSettings } from '../sync/protocol/desktop.js';

/** Turn spell check on or off with the languages chosen (those this computer has a dictionary for). */
export function applySpellCheck(ses: Session, s: Pick<DesktopSettings, 'spellcheck' | 'spellcheck_languages'>): void {
  ses.setSpellCheckerEnabled(s.spellcheck);
  const available = new Set(ses.availableSpellCheckerLanguages);
  const languages = s.spellcheck_languages.filter((l) => available.has(l));
  if (s.spellcheck && languages.length > 0) ses.setSpellCheckerLanguages(languages);
}

type Params = Pick<ContextMenuParams, 'misspelledWord' | 'dictionarySuggestions' | 'isEditable' | 'selectionText' | 'editFlags'>;

/** The context menu for what was right-clicked (empty: none shown). */
export function contextMenuTemplate(p: Params, act: { replace(word: string): void; addToDictionary(word: string): void }): MenuItemConstructorOptions[] {
  const items: MenuItemConstructorOptions[] = [];
  const word = p.misspelledWord;
  if (word !== '') {
    const suggestions = p.dictionarySuggestions.slice(0, 6);
    if (suggestions.length === 0) items.push({ label: 'No spelling suggestions', enabled: false });
    for (const s of suggestions) items.push({ label: s, click: () => act.replace(s) });
    items.push({ type: 'separator' }, { label: 'Add to dictionary', click: () => act.addToDictionary(word) }, { type: 'separator' });
  }
  if (p.isEditable) {
    items.push(
      { role: 'cut', label: 'Cut', enabled: p.editFlags.canCut },
      { role: 'copy', label: 'Copy', enabled: p.editFlags.canCopy },
      { role: 'paste', label: 'Paste', enabled: p.editFlags.canPaste },
    );
  } else if (p.selectionText.trim() !== '') {
    items.push({ role: 'copy', label: 'Copy' });
  }
  return items;
}

/** Show that menu on right-clicks in `win`. */
export function attachContextMenu(win: BrowserWindow, ses: Session): void {
  const contents = win.webContents;
  contents.on('context-menu', (_event, params) => {
    const template = contextMenuTemplate(params, {
      replace: (w) => contents.replaceMisspelling(w),
      addToDictionary: (w) => void ses.addWordToSpellCheckerDictionary(w),
    });
    if (template.length > 0) Menu.buildFromTemplate(template).popup({ window: win });
  });
}
