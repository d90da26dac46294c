// What the terms of SPF records (RFC 7208) and the tags of DMARC (RFC 7489) and DKIM key records
// (RFC 6376) mean, in words, for the DNS lookup page's tables. Pure: no DOM.

/** One SPF term as the API answers it: a mechanism with its qualifier, or a modifier (qualifier null). */
export interface SpfTerm {
  qualifier: '+' | '-' | '~' | '?' | null;
  mechanism: string;
  value: string | null;
}

/** The result a qualifier gives when its mechanism matches (RFC 7208 §4.6.2). */
export const QUALIFIERS: Record<'+' | '-' | '~' | '?', { name: string; meaning: string }> = {
  '+': { name: 'Pass', meaning: 'pass (authorised to send)' },
  '-': { name: 'Fail', meaning: 'fail (not authorised: receivers may reject the mail)' },
  '~': { name: 'SoftFail', meaning: 'soft fail (probably not authorised: accept but mark as suspicious)' },
  '?': { name: 'Neutral', meaning: 'neutral (no statement either way)' },
};

/** `mail.test/24//64` → the domain part and the prefix lengths of an `a` or `mx` argument. */
function splitTarget(value: string | null, domain: string): { target: string; cidr: string } {
  if (value === null) return { target: domain, cidr: '' };
  const slash = value.indexOf('/');
  return slash === -1 ? { target: value, cidr: '' } : { target: value.slice(0, slash) || domain, cidr: value.slice(slash) };
}

/** ` (or in the /24 network around one)` for a prefix length `/24`, `//64` or `/24//64`. */
function networkPhrase(cidr: string): string {
  const match = /^(?:\/(\d+))?(?:\/\/(\d+))?$/.exec(cidr);
  if (cidr === '' || !match) return '';
  const sizes = [match[1] && `/${match[1]} (IPv4)`, match[2] && `/${match[2]} (IPv6)`].filter(Boolean).join(' or ');
  return ` or in the ${sizes} network around one`;
}

/** The condition a mechanism tests, as the start of a sentence. */
function conditionOf(term: SpfTerm, domain: string): string {
  const value = term.value ?? '';
  switch (term.mechanism) {
    case 'all':
      return 'Any sender not matched by an earlier term';
    case 'ip4':
    case 'ip6':
      return value.includes('/') ? `If the sender's IP address is in the network ${value}` : `If the sender's IP address is ${value}`;
    case 'a': {
      const { target, cidr } = splitTarget(term.value, domain);
      return `If the sender's IP address is an address (A or AAAA record) of ${target}${networkPhrase(cidr)}`;
    }
    case 'mx': {
      const { target, cidr } = splitTarget(term.value, domain);
      return `If the sender's IP address is an address of one of the mail servers (MX records) of ${target}${networkPhrase(cidr)}`;
    }
    case 'include':
      return `If the SPF record of ${value} gives pass for the sender`;
    case 'exists':
      return `If the name ${value} (its macros filled in from the message) has an A record`;
    case 'ptr':
      return `If the sender's IP address has a verified reverse DNS name in ${term.value ?? domain} (discouraged by RFC 7208 §5.5: slow and unreliable)`;
    default:
      return `If the "${term.mechanism}" mechanism matches`;
  }
}

/**
 * What one SPF term does, in a sentence; `domain` is the record's own domain (the target of a bare
 * `a`, `mx` or `ptr`), `hasAll` whether the record has an `all` mechanism (then `redirect=` is ignored).
 *
 * @example
 *   explainSpfTerm({ qualifier: '-', mechanism: 'all', value: null }, 'example.com', true)
 *   // 'Any sender not matched by an earlier term: fail (not authorised: receivers may reject the mail).'
 */
export function explainSpfTerm(term: SpfTerm, domain: string, hasAll: boolean): string {
  if (term.qualifier === null) {
    if (term.mechanism === 'redirect')
      return hasAll
        ? `Would hand the check to the SPF record of ${term.value} when nothing matched, but is ignored: the record has "all".`
        : `When no mechanism matched, the SPF record of ${term.value} decides instead.`;
    if (term.mechanism === 'exp')
      return `A receiver rejecting the mail may quote the explanation published in the TXT record of ${term.value}.`;
    return `Unknown modifier "${term.mechanism}": receivers ignore it.`;
  }
  return `${conditionOf(term, domain)}: ${QUALIFIERS[term.qualifier].meaning}.`;
}

/** The text of a qualifier cell: `+ Pass`, `~ SoftFail`; `modifier` for a modifier. */
export function qualifierText(qualifier: SpfTerm['qualifier']): string {
  return qualifier === null ? 'modifier' : `${qualifier} ${QUALIFIERS[qualifier].name}`;
}

/**
 * `3600` → `1 h`, `90` → `1 min 30 s`, `1209600` → `14 d`: a duration in seconds, its largest unit and the next one if not zero.
 *
 * @example
 *   formatSeconds(7200) // '2 h'
 */
export function formatSeconds(seconds: number): string {
  const units: [number, string][] = [
    [86_400, 'd'],
    [3600, 'h'],
    [60, 'min'],
    [1, 's'],
  ];
  const parts: string[] = [];
  let left = Math.max(0, Math.round(seconds));
  for (const [size, name] of units) {
    if (left >= size && parts.length < 2) {
      parts.push(`${Math.floor(left / size)} ${name}`);
      left %= size;
    } else if (parts.length > 0) break;
  }
  return parts.length === 0 ? '0 s' : parts.join(' ');
}

const POLICIES: Record<string, string> = {
  none: 'none: take no action, only report (monitoring)',
  quarantine: 'quarantine: treat it as suspicious (for example, the spam folder)',
  reject: 'reject: refuse it while it is being delivered',
};

const policyWords = (value: string) => POLICIES[value.toLowerCase()] ?? `"${value}" (not none, quarantine or reject: invalid)`;

const ALIGNMENT: Record<string, string> = {
  r: 'relaxed: it may be a subdomain of the From domain, or share its organisational domain',
  s: 'strict: it must equal the From domain exactly',
};

const FAILURE_OPTIONS: Record<string, string> = {
  '0': 'when every check fails to give an aligned pass',
  '1': 'when any check fails to give an aligned pass',
  d: 'when a DKIM signature fails to verify',
  s: 'when SPF fails',
};

/** `mailto:a@x.test,mailto:b@y.test!10m` → `mailto:a@x.test, mailto:b@y.test (up to 10m per report)`. */
function reportAddresses(value: string): string {
  return value
    .split(',')
    .map((uri) => uri.trim())
    .map((uri) => {
      const bang = uri.lastIndexOf('!');
      return bang > 0 ? `${uri.slice(0, bang)} (reports up to ${uri.slice(bang + 1)})` : uri;
    })
    .join(', ');
}

/**
 * What one DMARC tag says, in a sentence (RFC 7489 §6.3; `np`, `t` and `psd` from DMARCbis).
 *
 * @example
 *   explainDmarcTag('p', 'reject') // 'Policy for mail that fails DMARC: reject: refuse it while it is being delivered.'
 */
export function explainDmarcTag(tag: string, value: string): string {
  const v = value.trim();
  switch (tag.toLowerCase()) {
    case 'v':
      return v === 'DMARC1' ? 'Version: this is a DMARC record.' : `Version "${v}": only DMARC1 is a DMARC record.`;
    case 'p':
      return `Policy for mail that fails DMARC: ${policyWords(v)}.`;
    case 'sp':
      return `Policy for mail from subdomains that fails DMARC: ${policyWords(v)}.`;
    case 'np':
      return `Policy for mail from subdomains that do not exist: ${policyWords(v)}.`;
    case 'rua':
      return `Aggregate reports (daily summaries of the checks receivers made) go to ${reportAddresses(v)}.`;
    case 'ruf':
      return `Failure reports (details of single messages that failed) go to ${reportAddresses(v)}.`;
    case 'pct': {
      if (!/^\d{1,3}$/.test(v) || Number(v) > 100) return `Percentage "${v}" is not 0-100: receivers apply the policy to all failing mail.`;
      return Number(v) === 100
        ? 'The policy applies to all failing mail.'
        : `The policy applies to ${Number(v)}% of failing mail; the rest gets the next milder policy (reject → quarantine → none).`;
    }
    case 'adkim':
      return `DKIM alignment: the signing domain (d=) is ${ALIGNMENT[v.toLowerCase()] ?? `"${v}" (not r or s: relaxed applies)`}.`;
    case 'aspf':
      return `SPF alignment: the envelope sender's (Return-Path) domain is ${ALIGNMENT[v.toLowerCase()] ?? `"${v}" (not r or s: relaxed applies)`}.`;
    case 'fo': {
      const options = v.split(':').map((o) => o.trim().toLowerCase());
      const words = options.map((o) => FAILURE_OPTIONS[o] ?? `"${o}" (unknown option)`);
      return `Failure reports are wanted ${words.join('; ')}.`;
    }
    case 'rf':
      return v.toLowerCase() === 'afrf'
        ? 'Failure reports use the Authentication Failure Reporting Format (afrf, RFC 6591).'
        : `Failure report format "${v}": afrf is the only one defined.`;
    case 'ri':
      return /^\d+$/.test(v)
        ? `Aggregate reports are wanted every ${v} seconds (${formatSeconds(Number(v))}).`
        : `Report interval "${v}" is not a number of seconds: receivers send daily.`;
    case 't':
      return v.toLowerCase() === 'y'
        ? 'Testing: receivers apply the next milder policy while the owner tries the record.'
        : 'Not testing: receivers apply the policy as written.';
    case 'psd':
      return 'Public suffix domain flag (DMARCbis): whether this domain is a public suffix such as a registry.';
    default:
      return `Unknown tag "${tag}": receivers ignore it.`;
  }
}

/** The DMARC tags a record may leave out, and what receivers use then (RFC 7489 §6.3). */
const DMARC_DEFAULTS: [tag: string, value: string, meaning: string][] = [
  ['sp', '', 'subdomains get the policy of p'],
  ['pct', '100', 'the policy applies to all failing mail'],
  ['adkim', 'r', 'relaxed DKIM alignment'],
  ['aspf', 'r', 'relaxed SPF alignment'],
  ['fo', '0', 'failure reports when every check fails'],
  ['ri', '86400', 'aggregate reports daily'],
];

/**
 * The defaults that apply to a DMARC record's missing tags, as sentences.
 *
 * @example
 *   dmarcDefaults({ v: 'DMARC1', p: 'none', pct: '20' })[0] // 'sp not set: subdomains get the policy of p.'
 */
export function dmarcDefaults(tags: Record<string, string>): string[] {
  const present = new Set(Object.keys(tags).map((t) => t.toLowerCase()));
  return DMARC_DEFAULTS.filter(([tag]) => !present.has(tag)).map(
    ([tag, value, meaning]) => `${tag} not set${value === '' ? '' : ` (${tag}=${value})`}: ${meaning}.`,
  );
}

const DKIM_FLAGS: Record<string, string> = {
  y: 'y: testing; verifiers must treat a failing signature as no signature',
  s: 's: the signing identity (i=) must be in exactly the signing domain (d=), not a subdomain',
};

/** A DKIM key record as far as its tag explanations need it. */
export interface DkimKeyFacts {
  key_type: string;
  key_bits: number | null;
}

/**
 * What one tag of a DKIM key record says, in a sentence (RFC 6376 §3.6.1, RFC 8463 for ed25519).
 *
 * @example
 *   explainDkimTag('k', 'rsa', { key_type: 'rsa', key_bits: 2048 }) // 'Key type: RSA.'
 */
export function explainDkimTag(tag: string, value: string, key: DkimKeyFacts): string {
  const v = value.trim();
  switch (tag.toLowerCase()) {
    case 'v':
      return v === 'DKIM1' ? 'Version: this is a DKIM key record.' : `Version "${v}": only DKIM1 is defined.`;
    case 'k':
      return v.toLowerCase() === 'ed25519'
        ? 'Key type: Ed25519 (RFC 8463).'
        : v.toLowerCase() === 'rsa'
          ? 'Key type: RSA.'
          : `Key type "${v}": unknown to verifiers.`;
    case 'p': {
      if (v === '') return 'Public key: empty, so the key is revoked; signatures made with this selector fail.';
      const size =
        key.key_bits === null ? 'unreadable' : `${key.key_bits}-bit ${key.key_type === 'ed25519' ? 'Ed25519' : key.key_type.toUpperCase()}`;
      return `Public key (base64): ${size}${key.key_type === 'rsa' && key.key_bits !== null && key.key_bits < 1024 ? ', too short (RFC 8301 requires 1024 bits or more)' : ''}.`;
    }
    case 'h': {
      const algorithms = v.split(':').map((a) => a.trim().toLowerCase());
      const sha1 = algorithms.includes('sha1') ? ' (sha1 is obsolete: RFC 8301 forbids signing with it)' : '';
      return `Hash algorithms signatures may use: ${algorithms.join(', ')}${sha1}.`;
    }
    case 's': {
      const services = v.split(':').map((s) => s.trim());
      return services.includes('*')
        ? 'Service types: all (*).'
        : `Service types: ${services.join(', ')}${services.includes('email') ? ' (mail only)' : ''}.`;
    }
    case 't': {
      const flags = v.split(':').map((f) => f.trim().toLowerCase());
      return `Flags: ${flags.map((f) => DKIM_FLAGS[f] ?? `${f}: unknown, ignored`).join('; ')}.`;
    }
    case 'n':
      return 'Notes for people; verifiers ignore them.';
    case 'g':
      return 'Granularity (RFC 4871, obsolete): verifiers ignore it.';
    default:
      return `Unknown tag "${tag}": verifiers ignore it.`;
  }
}
