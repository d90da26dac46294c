// The mock data page's answer: the rows as a table of text cells with the seed they came from, and
// the saving of a download (the page fetches its text).

const MAX_PREVIEW_ROWS = 200;

/** The JSON answer of POST /v1/mock-data. */
export interface Generated {
  data: Record<string, unknown>[];
  rows: number;
  fields: number;
}

/** Save `text` as a file named `name`, through a link to a blob of it. */
export function saveFile(text: string, name: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function Cell({ value }: { value: unknown }) {
  if (value === null) return <span class="tool-null">null</span>;
  return <>{typeof value === 'object' ? JSON.stringify(value) : String(value)}</>;
}

/** The generated rows under their field names, with the seed used ("Keep this seed" when the page picked it). */
export function Preview({ body, result, onKeepSeed }: { body: Record<string, unknown>; result: Generated; onKeepSeed?: () => void }) {
  const columns = (body.fields as { name: string }[]).map((f) => f.name);
  const shown = result.data.slice(0, MAX_PREVIEW_ROWS);
  return (
    <>
      <div class="mock-summary">
        <p>
          {result.rows} {result.rows === 1 ? 'row' : 'rows'} × {result.fields} {result.fields === 1 ? 'field' : 'fields'}, locale{' '}
          {String(body.locale ?? 'en_US')}, seed <code>{String(body.seed)}</code>
        </p>
        {onKeepSeed && (
          <button type="button" class="secondary" onClick={onKeepSeed}>
            Keep this seed
          </button>
        )}
      </div>
      <div class="tool-table-wrap mock-preview" tabIndex={0} role="group" aria-label="Preview">
        <table class="tool-table">
          <caption class="offscreen">Generated rows</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row, i) => (
              <tr key={i}>
                {columns.map((c) => (
                  <td key={c}>
                    <Cell value={row[c]} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {result.data.length > shown.length && (
        <p class="hint">
          Showing {shown.length} of {result.data.length} rows; the downloads hold them all.
        </p>
      )}
    </>
  );
}
