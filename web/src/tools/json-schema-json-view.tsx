// A JSON value pretty-printed and coloured by token, inserted as text (JMESPath results, inferred schemas).
import { tokenizeJson } from './json-schema-json';
import './json-schema.css';

/** Longer texts are shown uncoloured: one element per token would slow the page down. */
const MAX_COLOURED_CHARS = 200_000;

/**
 * `value` as indented JSON in a focusable (scrollable) block.
 *
 * @example
 *   <JsonView value={{ result: ['Alan'] }} />
 */
export function JsonView({ value }: { value: unknown }) {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  const content =
    text.length > MAX_COLOURED_CHARS
      ? text
      : tokenizeJson(text).map((token, i) => {
          const part = text.slice(token.from, token.to);
          return token.kind === 'space' || token.kind === 'punctuation' ? (
            part
          ) : (
            <span key={i} class={`json-${token.kind}`}>
              {part}
            </span>
          );
        });
  return (
    <pre class="tool-value tool-json json-view" tabIndex={0}>
      {content}
    </pre>
  );
}
