// The failing field of a validation error marked in the data editor (CodeMirror), loaded with the
// editor: the range is selected and also marked, as the editor's active-line background hides a
// selection within one line; the mark goes at the first edit.
import { StateEffect, StateField } from '@codemirror/state';
import { Decoration, EditorView, type DecorationSet } from '@codemirror/view';
import { targetRangeOf } from '../components/code-editor-typing';
import { locateJsonPath, type JsonPath, type TextRange } from './json-schema-json';

const setTarget = StateEffect.define<TextRange | null>();
const targetMark = Decoration.mark({ class: 'cm-schema-target' });

const target = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    let next = tr.docChanged ? Decoration.none : marks;
    for (const effect of tr.effects)
      if (effect.is(setTarget))
        next =
          effect.value && effect.value.to > effect.value.from
            ? Decoration.set([targetMark.range(effect.value.from, effect.value.to)])
            : Decoration.none;
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

// An outline, not a background: typing over a span with a background makes Chromium copy it into
// an inline style attribute, which the CSP refuses.
const targetTheme = EditorView.theme({
  '.cm-schema-target': { outline: '2px solid var(--danger)', borderRadius: '2px' },
});

/**
 * The mark goes before text typed into the page reaches the DOM, so that none lands inside its span,
 * with the range the browser is about to replace as the editor's selection. Typing over a selection
 * is applied by the editor (code-editor-typing.ts), and edits the editor makes itself (paste, Enter)
 * clear it as they change the document; when no range can be read, or while composing, it goes
 * once the editor has read the change.
 */
const clearBeforeInput = EditorView.domEventHandlers({
  beforeinput(event, view) {
    if (view.state.field(target).size === 0 || event.isComposing) return false;
    const selection = targetRangeOf(view, event);
    if (selection !== null) view.dispatch({ effects: setTarget.of(null), selection });
    return false;
  },
});

/**
 * Select and mark the value at `path` in the editor whose `.cm-editor` element is `editor`, and focus it;
 * false when the editor's text has no such value (edited since the validation).
 */
export function markPathInEditor(editor: HTMLElement, path: JsonPath): boolean {
  const view = EditorView.findFromDOM(editor);
  if (view === null) return false;
  const range = locateJsonPath(view.state.doc.toString(), path);
  if (view.state.field(target, false) === undefined)
    view.dispatch({ effects: StateEffect.appendConfig.of([target, targetTheme, clearBeforeInput]) });
  view.dispatch({ effects: setTarget.of(range) });
  if (range === null) return false;
  view.dispatch({ selection: { anchor: range.from, head: range.to }, scrollIntoView: true });
  view.focus();
  return true;
}
