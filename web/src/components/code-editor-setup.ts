// CodeMirror for the code editor, in a module of its own so that code-editor.tsx loads it on first
// use and the bundler keeps only what is imported here: a lean set (no autocompletion, search or lint).
import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { bracketMatching, foldGutter, foldKeymap, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { Annotation } from '@codemirror/state';
import { tags } from '@lezer/highlight';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { typeOverSelection } from './code-editor-typing';

export { Compartment, EditorState } from '@codemirror/state';
export { EditorView, json };

/** JSON's colours from the app's custom properties (styles.css), so that both themes keep their contrast. */
const jsonColours = HighlightStyle.define([
  { tag: tags.string, color: 'var(--code-string)' },
  { tag: tags.number, color: 'var(--code-number)' },
  { tag: [tags.bool, tags.null], color: 'var(--code-keyword)' },
  { tag: tags.propertyName, color: 'var(--code-property)' },
]);

/** Colours from the app's custom properties, which cross the shadow boundary, so both themes apply. */
const theme = EditorView.theme({
  '&': { color: 'var(--text)', backgroundColor: 'var(--surface)', border: '1px solid var(--border)', borderRadius: 'var(--radius)' },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '2px' },
  '.cm-scroller': { fontFamily: 'var(--mono)', fontSize: '0.9rem', minHeight: '8rem', maxHeight: '28rem', overflow: 'auto' },
  '.cm-gutters': { backgroundColor: 'var(--bg)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  // Translucent: the active line is drawn over the selection, which must show through.
  '.cm-activeLine': { backgroundColor: 'var(--code-active-line)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--code-active-line)', color: 'var(--text)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground': {
    backgroundColor: 'var(--code-selection)',
  },
  '.cm-content': { caretColor: 'var(--text)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--text)' },
  '&.cm-invalid': { borderColor: 'var(--danger)' },
});

export const setup = [
  lineNumbers(),
  highlightActiveLineGutter(),
  highlightSpecialChars(),
  drawSelection(),
  highlightActiveLine(),
  history(),
  foldGutter(),
  indentOnInput(),
  syntaxHighlighting(jsonColours),
  bracketMatching(),
  closeBrackets(),
  keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...foldKeymap]),
  EditorView.lineWrapping,
  typeOverSelection,
  theme,
];

/** JSON's language support, one instance, so that switching back to JSON reuses it. */
export const jsonLanguage = json();

/** Marks the changes made from the editor's `value` prop, which are not reported back as input. */
export const fromProp = Annotation.define<boolean>();
