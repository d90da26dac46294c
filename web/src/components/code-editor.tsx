// A code editor (CodeMirror 6), loaded on first use and shown as a plain textarea until then.
// CodeMirror styles itself with a <style> element, which the CSP's style-src 'self' refuses; inside
// a shadow root it uses a constructed style sheet instead, which the CSP allows.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

export interface CodeEditorProps {
  /** The editing element's accessible name: the visible label's text. */
  label: string;
  value: string;
  onInput(value: string): void;
  /** `json` highlights and matches brackets for JSON; `text` is plain. */
  language?: 'json' | 'text';
  /** The fallback textarea's id, for a `<label for>`; once the editor is in, a click on that label focuses it. */
  id?: string;
  /** Ids of elements describing the field (hint, error), as `aria-describedby`. */
  describedBy?: string;
  invalid?: boolean;
  required?: boolean;
  readOnly?: boolean;
  /** Classes for the element whose shadow root holds the editor, which inherits its custom properties. */
  hostClass?: string;
}

type Editor = typeof import('./code-editor-setup');
let loading: Promise<Editor> | undefined;
/** CodeMirror's chunk, fetched once; after a failure the next editor to mount tries again. */
const loadEditor = () =>
  (loading ??= import('./code-editor-setup').catch((err: unknown) => {
    loading = undefined;
    throw err;
  }));

type View = InstanceType<Editor['EditorView']>;

interface Current {
  label: string;
  value: string;
  onInput(value: string): void;
  language: 'json' | 'text';
  describedBy: string | undefined;
  invalid: boolean;
  required: boolean;
  readOnly: boolean;
}

/** The elements of the page that `describedBy` names. */
const describers = (describedBy: string | undefined): Element[] =>
  (describedBy ?? '')
    .split(/\s+/)
    .map((ref) => (ref === '' ? null : document.getElementById(ref)))
    .filter((el) => el !== null);

/** The attributes of the editing element. */
function attributesOf({ label, describedBy, invalid, required }: Current): Record<string, string> {
  // An explicit tabindex tells checkers (axe) that the scrolling editor is reachable by keyboard; it adds no tab stop.
  const attrs: Record<string, string> = { 'aria-label': label, tabindex: '0' };
  // For browsers without element references (ariaDescribedByElements), the describing text is copied too.
  const description = describers(describedBy)
    .map((el) => el.textContent ?? '')
    .filter(Boolean)
    .join(' ');
  if (description) attrs['aria-description'] = description;
  if (invalid) attrs['aria-invalid'] = 'true';
  if (required) attrs['aria-required'] = 'true';
  return attrs;
}

/**
 * An editor for JSON or text, with a textarea until CodeMirror has loaded (and for good if it cannot).
 *
 * @example
 *   <label for="data">Data</label>
 *   <CodeEditor id="data" label="Data" value={text} onInput={setText} language="json" />
 */
export function CodeEditor({
  label,
  value,
  onInput,
  language = 'json',
  id,
  describedBy,
  invalid = false,
  required = false,
  readOnly = false,
  hostClass,
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const view = useRef<View | null>(null);
  /** Brings the editor's settings in line with the latest props. */
  const sync = useRef<(() => void) | null>(null);
  const marker = useRef<Editor['fromProp'] | null>(null);
  const latest = useRef<Current>({ label, value, onInput, language, describedBy, invalid, required, readOnly });
  latest.current = { label, value, onInput, language, describedBy, invalid, required, readOnly };
  const [ready, setReady] = useState(false);
  /** Whether the textarea had focus when the editor replaced it. */
  const takeFocus = useRef(false);
  /** The texts reported through onInput since the prop last caught up with the document. */
  const echoes = useRef<string[]>([]);

  useEffect(() => {
    let cancelled = false;
    let dispose: (() => void) | undefined;
    loadEditor().then(
      ({ EditorView, EditorState, Compartment, setup, jsonLanguage, fromProp }) => {
        if (cancelled || host.current === null) return;
        const root = host.current.shadowRoot ?? host.current.attachShadow({ mode: 'open' });
        const parent = document.createElement('div');
        root.replaceChildren(parent);
        const attrs = new Compartment();
        const editable = new Compartment();
        const lang = new Compartment();
        const dark = new Compartment();
        const attributeExtensions = (attributes: Record<string, string>, invalid: boolean) => [
          EditorView.contentAttributes.of(attributes),
          EditorView.editorAttributes.of(invalid ? { class: 'cm-invalid' } : {}),
        ];
        const editableExtensions = (readOnly: boolean) => [EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)];
        const languageExtensions = (language: Current['language']) => (language === 'json' ? jsonLanguage : []);
        // The base theme's own colours (cursor, selection, bracket marks) follow the system's theme as the app does.
        const scheme = matchMedia('(prefers-color-scheme: dark)');

        const first = latest.current;
        const firstAttributes = attributesOf(first);
        let applied = { attributes: JSON.stringify([firstAttributes, first.invalid]), readOnly: first.readOnly, language: first.language };
        // Whoever was typing in the textarea goes on in the editor, at the same place.
        const area = textarea.current;
        takeFocus.current = area !== null && document.activeElement === area;
        const at = (n: number) => Math.min(n, first.value.length);
        const selection =
          area !== null && takeFocus.current
            ? area.selectionDirection === 'backward'
              ? { anchor: at(area.selectionEnd), head: at(area.selectionStart) }
              : { anchor: at(area.selectionStart), head: at(area.selectionEnd) }
            : undefined;

        const created = new EditorView({
          root,
          parent,
          doc: first.value,
          selection,
          extensions: [
            setup,
            lang.of(languageExtensions(first.language)),
            attrs.of(attributeExtensions(firstAttributes, first.invalid)),
            editable.of(editableExtensions(first.readOnly)),
            dark.of(EditorView.darkTheme.of(scheme.matches)),
            EditorView.updateListener.of((update) => {
              if (!update.docChanged || update.transactions.some((tr) => tr.annotation(fromProp) === true)) return;
              const text = update.state.doc.toString();
              echoes.current = [...echoes.current.slice(-49), text];
              latest.current.onInput(text);
            }),
          ],
        });
        const followScheme = () => created.dispatch({ effects: dark.reconfigure(EditorView.darkTheme.of(scheme.matches)) });
        scheme.addEventListener('change', followScheme);
        dispose = () => scheme.removeEventListener('change', followScheme);
        view.current = created;
        marker.current = fromProp;

        sync.current = () => {
          const now = latest.current;
          const attributes = attributesOf(now);
          const wanted = { attributes: JSON.stringify([attributes, now.invalid]), readOnly: now.readOnly, language: now.language };
          const effects = [
            ...(wanted.attributes !== applied.attributes ? [attrs.reconfigure(attributeExtensions(attributes, now.invalid))] : []),
            ...(wanted.readOnly !== applied.readOnly ? [editable.reconfigure(editableExtensions(now.readOnly))] : []),
            ...(wanted.language !== applied.language ? [lang.reconfigure(languageExtensions(now.language))] : []),
          ];
          applied = wanted;
          if (effects.length > 0) created.dispatch({ effects });
          // An id reference cannot leave the shadow root; an element reference to the page can.
          const described = describers(now.describedBy);
          const current = created.contentDOM.ariaDescribedByElements ?? [];
          if (described.length !== current.length || described.some((el, i) => el !== current[i])) {
            created.contentDOM.ariaDescribedByElements = described.length > 0 ? described : null;
          }
        };
        sync.current();
        setReady(true);
      },
      () => {
        // The editor chunk did not load (offline, a new deploy): the textarea stays and works.
      },
    );
    return () => {
      cancelled = true;
      dispose?.();
      view.current?.destroy();
      view.current = null;
      sync.current = null;
    };
  }, []);

  // Before the next paint, so that no keystroke falls between the textarea and the editor.
  useLayoutEffect(() => {
    if (!ready || !takeFocus.current) return;
    takeFocus.current = false;
    view.current?.focus();
  }, [ready]);

  // A `<label for>` names a textarea only: once the editor is in, a click on the label focuses it.
  useEffect(() => {
    if (!ready || id === undefined) return;
    const focus = (event: MouseEvent) => {
      if (event.target instanceof Element && event.target.closest('label')?.htmlFor === id) view.current?.focus();
    };
    document.addEventListener('click', focus);
    return () => document.removeEventListener('click', focus);
  }, [ready, id]);

  // A value set from outside (a shared link, a renderer, "Format JSON") replaces the document.
  useEffect(() => {
    const v = view.current;
    if (v === null) return;
    if (v.state.doc.toString() === value) {
      echoes.current = [];
      return;
    }
    // An echo of what was typed (possibly of an older keystroke, rendered late) is no outside change:
    // pushing it back would undo the keystrokes since.
    if (echoes.current.includes(value)) return;
    echoes.current = [];
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value }, annotations: marker.current?.of(true) });
  }, [value, ready]);

  // Every render: the texts of the describing elements may change while their ids stay.
  useEffect(() => sync.current?.());

  return (
    <div class={`code-editor${invalid ? ' code-editor-invalid' : ''}`}>
      {!ready && (
        <textarea
          ref={textarea}
          id={id}
          aria-label={label}
          aria-describedby={describedBy}
          aria-invalid={invalid ? 'true' : undefined}
          aria-required={required ? 'true' : undefined}
          readOnly={readOnly}
          spellcheck={false}
          value={value}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      )}
      <div ref={host} class={hostClass ? `code-editor-host ${hostClass}` : 'code-editor-host'} hidden={!ready} />
    </div>
  );
}
