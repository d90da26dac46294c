// Typing over a selection, applied by the editor rather than the browser: Chromium's own edit of a
// range that spans coloured tokens (select all, then type) writes their colour into an inline style
// attribute, which the CSP refuses, and lands on the selection the editor last drew, which may not
// yet be the one the user just made.
import { EditorView } from '@codemirror/view';

/**
 * The range a `beforeinput` event is about to replace, in document positions: the event's target
 * range, or the page's selection when it gives none (text committed as by an input method); null
 * when neither is in the editor.
 */
export function targetRangeOf(view: EditorView, event: InputEvent): { anchor: number; head: number } | null {
  const range = event.getTargetRanges()[0] ?? selectedRange(view);
  if (range === undefined) return null;
  try {
    // A boundary outside the content (select all can put one on the editor's wrapper) maps to the
    // document's start or end, as it lies before or after the content.
    return { anchor: view.posAtDOM(range.startContainer, range.startOffset), head: view.posAtDOM(range.endContainer, range.endOffset) };
  } catch {
    // Its type says posAtDOM may throw for a node outside the editor.
    return null;
  }
}

/** The page's selection as a range that may lie inside the editor's shadow root (undefined where the browser cannot say). */
function selectedRange(view: EditorView): StaticRange | undefined {
  const selection = document.getSelection();
  if (selection === null || typeof selection.getComposedRanges !== 'function') return undefined;
  const shadowRoots = view.root instanceof ShadowRoot ? [view.root] : [];
  const [range] = selection.getComposedRanges({ shadowRoots });
  return range !== undefined && view.contentDOM.contains(range.startContainer) && view.contentDOM.contains(range.endContainer)
    ? range
    : undefined;
}

/**
 * Text typed over a non-empty selection becomes one transaction, offered first to the editor's
 * input handlers (closing brackets wrap the selection, as when the editor reads the edit itself).
 * Typing at a caret, composition, paste, cut and the keys the keymap handles keep their usual way.
 */
export const typeOverSelection = EditorView.domEventHandlers({
  beforeinput(event, view) {
    if (event.inputType !== 'insertText' || event.data === null || event.isComposing || view.state.readOnly) return false;
    const target = targetRangeOf(view, event);
    if (target === null || target.anchor === target.head) return false;
    event.preventDefault();
    const text = event.data;
    const [from, to] = [Math.min(target.anchor, target.head), Math.max(target.anchor, target.head)];
    const { main } = view.state.selection;
    if (main.from !== from || main.to !== to) view.dispatch({ selection: target });
    const insert = () =>
      view.state.update({
        changes: { from, to, insert: text },
        selection: { anchor: from + text.length },
        userEvent: 'input.type',
        scrollIntoView: true,
      });
    if (!view.state.facet(EditorView.inputHandler).some((handler) => handler(view, from, to, text, insert))) view.dispatch(insert());
    return true;
  },
});
