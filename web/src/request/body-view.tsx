import { useMemo, useState } from 'preact/hooks';
import { bodyBytes, formatSize, mediaTypeOf, type CapturedRequest } from './captured';
import { hexDump } from './hexdump';
import { NameValueTable } from './name-value-table';

type ViewName = 'pretty' | 'fields' | 'raw' | 'hex' | 'base64';

const LABELS: Record<ViewName, string> = { pretty: 'Pretty', fields: 'Fields', raw: 'Raw', hex: 'Hex', base64: 'Base64' };

/** What is shown before "Show all": enough to read, little enough to render at once. */
const TEXT_LIMIT = 64 * 1024;
const HEX_LIMIT = 4 * 1024;
const FIELDS_LIMIT = 500;

type Body = Pick<CapturedRequest, 'body' | 'body_encoding' | 'content_type' | 'content_length'>;

/** The JSON value of a body, or undefined when it is not JSON. */
function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

const isJsonType = (type: string) => type === 'application/json' || type.endsWith('+json');

/**
 * The views a body offers, the first being the default: picked from its content type and its
 * bytes (base64 ones are binary). HTML, XML, multipart and the rest are text: never rendered.
 */
function viewsOf({ body, body_encoding, content_type }: Body): { views: ViewName[]; json?: unknown; note?: string } {
  if (body_encoding === 'base64') return { views: ['hex', 'base64'] };
  const type = mediaTypeOf(content_type);
  if (type === 'application/x-www-form-urlencoded') return { views: ['fields', 'raw', 'hex'] };
  const guess = type === '' && /^\s*[[{]/.test(body);
  if (isJsonType(type) || guess) {
    const parsed = parseJson(body);
    if (parsed) return { views: ['pretty', 'raw', 'hex'], json: parsed.value };
    if (!guess) return { views: ['raw', 'hex'], note: 'Not valid JSON: shown as text.' };
  }
  return { views: ['raw', 'hex'] };
}

/** The first `limit` UTF-16 units of `text`, not cutting a surrogate pair in two. */
function headOf(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const code = text.charCodeAt(limit - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
}

function ShowAll({ shown, total, onShowAll }: { shown: string; total: string; onShowAll: () => void }) {
  return (
    <p class="hint body-limit">
      Showing the first {shown} of {total}.{' '}
      <button type="button" class="secondary" onClick={onShowAll}>
        Show all
      </button>
    </p>
  );
}

const count = new Intl.NumberFormat(undefined);

/** A text in a scrollable block, cut to its first {@link TEXT_LIMIT} characters until "Show all". */
function TextBlock({ text }: { text: string }) {
  const [all, setAll] = useState(false);
  const cut = !all && text.length > TEXT_LIMIT;
  return (
    <>
      <pre class="body-text" tabIndex={0}>
        {cut ? headOf(text, TEXT_LIMIT) : text}
      </pre>
      {cut && <ShowAll shown={count.format(TEXT_LIMIT)} total={`${count.format(text.length)} characters`} onShowAll={() => setAll(true)} />}
    </>
  );
}

function HexView({ bytes }: { bytes: Uint8Array }) {
  const [all, setAll] = useState(false);
  const cut = !all && bytes.length > HEX_LIMIT;
  const lines = useMemo(() => hexDump(bytes, cut ? HEX_LIMIT : bytes.length).join('\n'), [bytes, cut]);
  return (
    <>
      <p class="hint">Offset, bytes in hex, ASCII</p>
      <pre class="body-hex" tabIndex={0}>
        {lines}
      </pre>
      {cut && <ShowAll shown={formatSize(HEX_LIMIT)} total={formatSize(bytes.length)} onShowAll={() => setAll(true)} />}
    </>
  );
}

function FieldsView({ body }: { body: string }) {
  const [all, setAll] = useState(false);
  const rows = useMemo(() => [...new URLSearchParams(body)], [body]);
  const cut = !all && rows.length > FIELDS_LIMIT;
  return (
    <>
      <NameValueTable label="Form fields" rows={cut ? rows.slice(0, FIELDS_LIMIT) : rows} />
      {cut && <ShowAll shown={`${FIELDS_LIMIT} fields`} total={`${count.format(rows.length)}`} onShowAll={() => setAll(true)} />}
    </>
  );
}

/**
 * A captured body with a switch between its views (Pretty JSON or form Fields, Raw text, Hex
 * dump, Base64); a large body shows its first part until "Show all", so the page stays responsive.
 */
export function BodyView({ request }: { request: Body }) {
  const { views, json, note } = useMemo(() => viewsOf(request), [request]);
  const [view, setView] = useState<ViewName>(views[0]);
  const bytes = useMemo(() => bodyBytes(request), [request]);
  if (request.content_length === 0) return <p class="hint">No body</p>;
  const current = views.includes(view) ? view : views[0];

  return (
    <div class="body-view">
      <div class="body-views" role="group" aria-label="Body view">
        {views.map((name) => (
          <button key={name} type="button" class="secondary" aria-pressed={name === current} onClick={() => setView(name)}>
            {LABELS[name]}
          </button>
        ))}
      </div>
      {note && <p class="hint">{note}</p>}
      {current === 'pretty' && <TextBlock key="pretty" text={JSON.stringify(json, null, 2)} />}
      {current === 'fields' && <FieldsView body={request.body} />}
      {current === 'raw' && <TextBlock key="raw" text={request.body} />}
      {current === 'base64' && <TextBlock key="base64" text={request.body} />}
      {current === 'hex' && <HexView bytes={bytes} />}
    </div>
  );
}
