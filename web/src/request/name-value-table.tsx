/** Name/value pairs (headers, query parameters, form fields) as a two-column table; every value is text. */
export function NameValueTable({ label, rows }: { label: string; rows: [string, string][] }) {
  return (
    <div class="request-table-scroll">
      <table class="request-table" aria-label={label}>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, value], i) => (
            <tr key={i}>
              <th scope="row">{name}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
