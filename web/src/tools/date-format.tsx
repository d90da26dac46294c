// The date format page: the generic fields with searchable time-zone pickers (date-format-zones.ts),
// the answer live, and a strftime cheat sheet whose examples the API prints for the date of the last
// answer; a directive clicked goes into the output format at the caret.
import { useEffect, useMemo, useState } from 'preact/hooks';
import './date-format.css';
import { ALL_DIRECTIVES_FORMAT, DIRECTIVES, examplesOf, insertAt } from './date-format-directives';
import { fieldId } from './form';
import { zoneOptions } from './date-format-zones';
import { PickerForm, ResultSection } from './number-format-form';
import type { Inputs, ToolPageProps } from './types';

/** A printed example as it reads: spaces kept, a newline or tab named. */
function shownExample(text: string): string {
  return text.replace(/\n/g, '⏎').replace(/\t/g, '⇥');
}

function CheatSheet({ props }: { props: ToolPageProps }) {
  const { operation, inputs, setInputs, send, call } = props;
  const [open, setOpen] = useState(false);
  const [examples, setExamples] = useState<{ key: string; values: Map<string, string> | null; failed?: string } | null>(null);
  const outputId = fieldId(operation.id, 'output_format');
  // The examples are for the request of the last answer, whatever its output format.
  const body = call.outcome?.request.body ?? null;
  const base: Inputs | null = body && {
    date: String(body.date),
    ...Object.fromEntries(
      ['input_format', 'from_timezone', 'to_timezone'].filter((k) => typeof body[k] === 'string').map((k) => [k, body[k] as string]),
    ),
  };
  const key = base ? JSON.stringify(base) : '';

  useEffect(() => {
    if (!open || base === null || examples?.key === key) return;
    let current = true;
    send(operation.id, { ...base, output_format: ALL_DIRECTIVES_FORMAT }).then(
      (outcome) => current && setExamples({ key, values: examplesOf((outcome.result as { formatted: string }).formatted) }),
      (err: { detail?: string }) => current && setExamples({ key, values: null, failed: err.detail ?? String(err) }),
    );
    return () => {
      current = false;
    };
  }, [open, key]);

  const insert = (directive: string) => {
    const input = document.getElementById(outputId) as HTMLInputElement | null;
    const text = typeof inputs.output_format === 'string' ? inputs.output_format : '';
    const start = input?.selectionStart ?? text.length;
    const end = input?.selectionEnd ?? text.length;
    const next = insertAt(text, directive, start, end);
    setInputs((previous) => ({ ...previous, output_format: next.text }));
    // After the render that puts the new text in the input.
    requestAnimationFrame(() => {
      const field = document.getElementById(outputId) as HTMLInputElement | null;
      field?.focus();
      field?.setSelectionRange(next.caret, next.caret);
    });
  };

  const values = examples?.key === key ? examples.values : null;
  let caption;
  if (base === null) caption = 'Examples appear once the API has read the date.';
  else if (examples?.key === key && examples.failed) caption = `No examples: ${examples.failed}`;
  else if (values === null) caption = 'Asking the API for examples…';
  else caption = `Examples for ${base.date} in ${String(base.to_timezone ?? base.from_timezone ?? 'UTC')}, as the API prints them.`;

  return (
    <details class="strftime" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>strftime cheat sheet</summary>
      <p class="hint">Click a directive to insert it into the output format at the caret.</p>
      <div class="tool-table-wrap" tabIndex={0} role="group" aria-label="strftime directives">
        <table class="tool-table strftime-table">
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Directive</th>
              <th scope="col">Meaning</th>
              <th scope="col">Example</th>
            </tr>
          </thead>
          <tbody>
            {DIRECTIVES.map(({ directive, meaning }) => (
              <tr key={directive}>
                <td>
                  <button type="button" class="secondary" aria-label={`Insert ${directive}`} onClick={() => insert(directive)}>
                    {directive}
                  </button>
                </td>
                <td>{meaning}</td>
                <td class="strftime-example">{values ? shownExample(values.get(directive) ?? '') : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

export default function DateFormatPage(props: ToolPageProps) {
  const pickers = useMemo(() => {
    const zones = { options: zoneOptions(Intl.supportedValuesOf('timeZone'), new Date()), noun: 'time zones' };
    return { from_timezone: zones, to_timezone: zones };
  }, []);
  return (
    <div class="tool-columns">
      <div class="date-format-inputs">
        <PickerForm props={props} pickers={pickers} />
        <CheatSheet props={props} />
      </div>
      <ResultSection props={props} />
    </div>
  );
}
