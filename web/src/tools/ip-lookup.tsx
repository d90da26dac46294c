// The IP geolocation page: one address field (empty: the caller's own address, where the page opens)
// and the answer as a card: country, region, city and coordinates, or why there are none.
import type { ApiResult } from '../api';
import { CopyButton } from '../components/copy-button';
import { FieldInput, fieldId } from './form';
import { formatCoordinates, reservedKind } from './ip-lookup-format';
import type { Outcome, ToolPageProps } from './types';
import './ip-lookup.css';

type GeoResult = ApiResult<'get', '/v1/geo/ip-lookup'>;

function Fact({ term, value }: { term: string; value: string | null }) {
  return (
    <div class="geo-fact">
      <dt>{term}</dt>
      <dd>{value === null ? <span class="hint">Not in the database</span> : <span class="geo-value">{value}</span>}</dd>
    </div>
  );
}

function GeoCard({ outcome }: { outcome: Outcome }) {
  const geo = outcome.result as GeoResult;
  // The page sends no `ip` for the caller's own address.
  const mine = !outcome.request.query?.ip;
  const located = geo.latitude !== null && geo.longitude !== null;
  const country = geo.country && geo.country_code ? `${geo.country} (${geo.country_code})` : (geo.country ?? geo.country_code);
  return (
    <div class="geo-card">
      <p class="geo-address">
        <span class="geo-kind">{mine ? 'Your address' : 'Address'}</span>
        <code>{geo.ip}</code>
        <CopyButton label="Copy IP address" text={geo.ip} />
      </p>
      {geo.reserved ? (
        <div class="geo-reserved">
          <p>
            <strong>Reserved address:</strong> {geo.ip} is {reservedKind(geo.ip)}. Reserved ranges are not routed on the public internet, so
            it has no location.
          </p>
          {mine && (
            <p class="hint">
              This is the address the service sees you connecting from: you are on the same machine or private network as the service (or
              behind a proxy it is not set to trust). Enter a public address to locate it.
            </p>
          )}
        </div>
      ) : (
        <>
          {country === null && geo.region === null && geo.city === null && !located && (
            <p>The database has no location for this address.</p>
          )}
          <dl class="geo-facts">
            <Fact term="Country" value={country} />
            <Fact term="Region" value={geo.region} />
            <Fact term="City" value={geo.city} />
            <div class="geo-fact">
              <dt>Coordinates</dt>
              <dd>
                {located ? (
                  <span class="geo-coordinates">
                    <span class="geo-value">{formatCoordinates(geo.latitude!, geo.longitude!)}</span>
                    <CopyButton label="Copy coordinates" text={`${geo.latitude}, ${geo.longitude}`} />
                  </span>
                ) : (
                  <span class="hint">Not in the database</span>
                )}
              </dd>
            </div>
          </dl>
          {located && <p class="hint">Coordinates are approximate: the centre of the city or region, not of the address.</p>}
        </>
      )}
    </div>
  );
}

export default function IpLookupPage({ operation, fields, inputs, setInputs, call }: ToolPageProps) {
  const field = fields.find((f) => f.name === 'ip')!;
  const value = typeof inputs.ip === 'string' ? inputs.ip : '';
  let content;
  if (call.error)
    content = (
      <p class="hint">No result: see the error{Object.keys(call.error.fieldErrors).length > 0 ? ' next to the field' : ' above'}.</p>
    );
  else if (call.outcome) content = <GeoCard outcome={call.outcome} />;
  else content = <p class="hint">Looking up…</p>;
  return (
    <div class="tool-columns">
      <form class="tool-form" aria-label={operation.label} noValidate onSubmit={(e) => e.preventDefault()}>
        <FieldInput
          field={field}
          id={fieldId(operation.id, 'ip')}
          value={value}
          error={call.error?.fieldErrors.ip}
          onChange={(next) => setInputs((previous) => ({ ...previous, ip: next }))}
        />
        <div>
          <button
            type="button"
            class="secondary"
            disabled={value === ''}
            onClick={() => setInputs((previous) => ({ ...previous, ip: '' }))}
          >
            Use my address
          </button>
        </div>
      </form>
      <section class="tool-result" aria-labelledby="tool-result-heading" aria-busy={call.busy ? 'true' : undefined}>
        <div class="tool-result-head">
          <h2 id="tool-result-heading">Result</h2>
          {call.busy && <span class="hint">Updating…</span>}
        </div>
        {content}
        <p class="hint geo-credit">
          Location data: IP Geolocation by <a href="https://db-ip.com">DB-IP</a>, licensed under CC BY 4.0.
        </p>
      </section>
    </div>
  );
}
