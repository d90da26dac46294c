/** A form submission as the scorer sees it. */
export interface FormSubmission {
  message: string;
  name?: string;
  email?: string;
  subject?: string;
  ip?: string;
  userAgent?: string;
  honeypot?: string;
  timeToSubmitMs?: number;
}

/** One rule: `check` returns the detail sentence when it fires (and the weight, when it scales), else null. */
export interface SpamRule {
  rule: string;
  weight: number;
  description: string;
  check(form: FormSubmission): { detail: string; weight?: number } | null;
}

export interface SpamReason {
  rule: string;
  weight: number;
  detail: string;
}

export interface SpamVerdict {
  score: number;
  isSpam: boolean;
  threshold: number;
  reasons: SpamReason[];
}

// Word lists shipped with the score, small on purpose (deterministic, no network); phrases match
// case-insensitively on whole words after NFKC normalisation.

/** Throwaway-mailbox providers; a sub-domain of one (x.mailinator.com) counts too. */
const DISPOSABLE_DOMAINS: ReadonlySet<string> = new Set([
  '0-mail.com',
  '10minutemail.com',
  '10minutemail.net',
  '20minutemail.com',
  '33mail.com',
  'anonbox.net',
  'burnermail.io',
  'discard.email',
  'dispostable.com',
  'dropmail.me',
  'emailondeck.com',
  'fakeinbox.com',
  'fakemail.net',
  'getairmail.com',
  'getnada.com',
  'grr.la',
  'guerrillamail.biz',
  'guerrillamail.com',
  'guerrillamail.de',
  'guerrillamail.net',
  'guerrillamail.org',
  'guerrillamailblock.com',
  'harakirimail.com',
  'incognitomail.org',
  'jetable.org',
  'mail-temp.com',
  'mailcatch.com',
  'maildrop.cc',
  'mailinator.com',
  'mailinator.net',
  'mailnesia.com',
  'mailpoof.com',
  'mintemail.com',
  'mohmal.com',
  'moakt.com',
  'mytemp.email',
  'nada.email',
  'pokemail.net',
  'sharklasers.com',
  'spam4.me',
  'spambox.us',
  'spamgourmet.com',
  'temp-mail.io',
  'temp-mail.org',
  'tempail.com',
  'tempmail.com',
  'tempmail.net',
  'tempmailo.com',
  'tempr.email',
  'throwawaymail.com',
  'trash-mail.com',
  'trashmail.com',
  'trashmail.de',
  'trashmail.net',
  'wegwerfmail.de',
  'yopmail.com',
  'yopmail.fr',
  'yopmail.net',
]);

/** Phrases typical of form spam (SEO offers, pharma, finance scams, prizes). */
const SPAM_PHRASES: readonly string[] = [
  'act now',
  'backlinks',
  'best price',
  'bitcoin investment',
  'buy now',
  'casino',
  'cheap',
  'cialis',
  'click here',
  'congratulations you have won',
  'crypto investment',
  'dear friend',
  'double your income',
  'earn money',
  'earn extra cash',
  'first page of google',
  'forex',
  'free gift',
  'guaranteed',
  'increase your traffic',
  'limited time offer',
  'loan approval',
  'lottery',
  'make money fast',
  'no credit check',
  'online pharmacy',
  'payday loan',
  'rank your website',
  'replica watches',
  'risk free',
  'seo services',
  'special promotion',
  'unsubscribe',
  'viagra',
  'weight loss',
  'winner',
  'work from home',
  '100% free',
];

/**
 * User-Agent fragments of HTTP libraries, headless browsers and crawlers (not browsers people use).
 * Crawlers name themselves `…bot/1.0` (Googlebot, bingbot, YandexBot, GPTBot, AhrefsBot, …); a bare
 * `…bot` without the version slash is not enough, since phone models are named so too (CUBOT_X30).
 */
const BOT_USER_AGENT =
  /curl|wget|python-requests|python-urllib|aiohttp|go-http-client|okhttp|java\/|libwww|httpclient|axios|node-fetch|headless|phantomjs|selenium|puppeteer|scrapy|\bbot\b|bot\/|bot-https|spider|crawler|slurp|facebookexternalhit|bytespider|petalbot/i;

const URL_PATTERN = /\b(?:https?:\/\/|www\.)[^\s<>"']+/gi;
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD\u202A-\u202E\u2066-\u2069]/gu;
/** A zero-width joiner inside an emoji sequence (👨‍👩‍👧, 🏳️‍🌈): ordinary text. */
// eslint-disable-next-line no-misleading-character-class -- the class holds skin-tone modifiers and U+FE0F on purpose: the joiner after them is part of an emoji
const EMOJI_JOINER = /(?<=[\p{Extended_Pictographic}\u{1F3FB}-\u{1F3FF}\uFE0F])\u200D(?=\p{Extended_Pictographic})/gu;
/**
 * A zero-width (non-)joiner between two letters of a script that spells with it (Persian می‌خواهم,
 * Urdu, the Indic scripts): ordinary text. Between Latin, Cyrillic or Greek letters it only hides a word.
 */
const SCRIPT_JOINER =
  /(?<=\p{L})(?<![\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}])[\u200C\u200D](?=\p{L})(?![\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}])/gu;
const PHRASE_PATTERNS = SPAM_PHRASES.map((p) => ({
  phrase: p,
  re: new RegExp(`(?<![\\p{L}\\p{N}])${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+')}(?![\\p{L}\\p{N}])`, 'iu'),
}));
const PHRASE_WEIGHT = 10;
const PHRASE_CAP = 40;

/** The first `n` code points of a value quoted in a reason (never half of a surrogate pair). */
function clip(text: string, n: number): string {
  return text.length <= n ? text : Array.from(text).slice(0, n).join('');
}

function joinTextFields(f: FormSubmission): string {
  return [f.name, f.email, f.subject, f.message].filter((x) => x !== undefined).join('\n');
}

function extractEmailDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  return at > 0
    ? email
        .slice(at + 1)
        .trim()
        .toLowerCase()
        .replace(/\.$/, '')
    : null;
}

function findDisposableDomain(domain: string): string | undefined {
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const candidate = labels.slice(i).join('.');
    if (DISPOSABLE_DOMAINS.has(candidate)) return candidate;
  }
  return undefined;
}

/** The rules, in the order reasons are reported. Weights add up; the score is capped at 100. */
export const SPAM_RULES: readonly SpamRule[] = [
  {
    rule: 'honeypot',
    weight: 60,
    description: 'the hidden honeypot field is not empty, whitespace included (only bots fill it)',
    check: (f) => (f.honeypot !== undefined && f.honeypot !== '' ? { detail: 'the honeypot field was filled in' } : null),
  },
  {
    rule: 'submitted_too_fast',
    weight: 30,
    description: 'time_to_submit_ms under 3000 (people need longer to fill a form)',
    check: (f) =>
      f.timeToSubmitMs !== undefined && f.timeToSubmitMs < 3000
        ? { detail: `submitted ${f.timeToSubmitMs} ms after the form was shown (under 3000 ms)` }
        : null,
  },
  {
    rule: 'link_density',
    weight: 25,
    description: '3 or more links in the message, or links are more than 20% of its words',
    check: (f) => {
      const links = f.message.match(URL_PATTERN)?.length ?? 0;
      const words = f.message.split(/\s+/).filter(Boolean).length;
      if (links >= 3 || (links > 0 && links / words > 0.2)) return { detail: `${links} link(s) in ${words} word(s)` };
      return null;
    },
  },
  {
    rule: 'markup_links',
    weight: 20,
    description: 'HTML anchors or BBCode [url] tags in the message (form fields are plain text)',
    check: (f) =>
      /<a\s[^>]{0,200}?href|\[url[=\]]|\[link[=\]]/i.test(f.message) ? { detail: 'the message contains HTML or BBCode links' } : null,
  },
  {
    rule: 'spam_phrases',
    weight: PHRASE_WEIGHT,
    description: `known spam phrases in subject or message: ${PHRASE_WEIGHT} per distinct phrase, at most ${PHRASE_CAP}`,
    check: (f) => {
      const text = [f.subject ?? '', f.message].join('\n').normalize('NFKC');
      const found = PHRASE_PATTERNS.filter((p) => p.re.test(text)).map((p) => p.phrase);
      return found.length
        ? { detail: `spam phrases: ${found.join(', ')}`, weight: Math.min(PHRASE_CAP, found.length * PHRASE_WEIGHT) }
        : null;
    },
  },
  {
    rule: 'disposable_email',
    weight: 25,
    description: 'the e-mail domain is a known throwaway-mailbox provider',
    check: (f) => {
      const domain = f.email ? extractEmailDomain(f.email) : null;
      const match = domain ? findDisposableDomain(domain) : undefined;
      return match ? { detail: `${domain} is a disposable e-mail domain (${match})` } : null;
    },
  },
  {
    rule: 'invalid_email',
    weight: 15,
    description: 'an e-mail was given (not empty: a field left blank is sent as "") but is not of the form local@domain.tld',
    check: (f) =>
      f.email !== undefined && f.email.trim() !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(f.email.trim())
        ? { detail: `"${clip(f.email, 100)}" is not an e-mail address` }
        : null,
  },
  {
    rule: 'link_in_name',
    weight: 20,
    description: 'the name field contains a link or an e-mail address',
    check: (f) =>
      f.name && /https?:\/\/|www\.|@|\.(?:com|net|org|ru|xyz|top)\b/i.test(f.name)
        ? { detail: 'the name contains a link or address' }
        : null,
  },
  {
    rule: 'zero_width_characters',
    weight: 20,
    description:
      'invisible characters (zero-width, soft hyphen, bidi controls) used to dodge filters; joiners inside emoji sequences, and between letters of scripts that spell with them (Persian, the Indic scripts), are ordinary text and do not count',
    check: (f) => {
      const n = joinTextFields(f).replace(EMOJI_JOINER, '').replace(SCRIPT_JOINER, '').match(INVISIBLE)?.length ?? 0;
      return n ? { detail: `${n} invisible character(s)` } : null;
    },
  },
  {
    rule: 'mixed_scripts',
    weight: 20,
    description: 'a word mixing Latin with Cyrillic or Greek letters (look-alike spelling)',
    check: (f) => {
      const word = joinTextFields(f)
        .normalize('NFC')
        .match(/[\p{L}\p{M}]+/gu)
        ?.find((w) => /\p{Script=Latin}/u.test(w) && /[\p{Script=Cyrillic}\p{Script=Greek}]/u.test(w));
      return word ? { detail: `"${clip(word, 40)}" mixes scripts` } : null;
    },
  },
  {
    rule: 'excessive_caps',
    weight: 10,
    description: 'subject or message of 20+ letters that is more than 60% capitals',
    check: (f) => {
      for (const [field, text] of [
        ['subject', f.subject ?? ''],
        ['message', f.message],
      ]) {
        const letters = text.match(/\p{L}/gu) ?? [];
        const upper = letters.filter((c) => c !== c.toLowerCase()).length;
        if (letters.length >= 20 && upper / letters.length > 0.6)
          return { detail: `${Math.round((100 * upper) / letters.length)}% of the ${field} letters are capitals` };
      }
      return null;
    },
  },
  {
    rule: 'excessive_punctuation',
    weight: 5,
    description: 'runs of 4 or more ! ? or $',
    check: (f) => (/[!?$]{4,}/.test(joinTextFields(f)) ? { detail: 'runs of !, ? or $' } : null),
  },
  {
    rule: 'bot_user_agent',
    weight: 15,
    description: 'user_agent given but empty, or an HTTP library / headless browser / crawler',
    check: (f) =>
      f.userAgent !== undefined && (f.userAgent.trim() === '' || BOT_USER_AGENT.test(f.userAgent))
        ? { detail: `user agent "${clip(f.userAgent, 80)}"` }
        : null,
  },
  {
    rule: 'empty_message',
    weight: 10,
    description: 'the message has fewer than 5 non-space characters',
    check: (f) => (f.message.replace(/\s/g, '').length < 5 ? { detail: 'the message is (almost) empty' } : null),
  },
];

/**
 * Score a form submission with the {@link SPAM_RULES} table: the weights of the rules that fire
 * are added and capped at 100; `isSpam` when the score reaches `threshold`. Deterministic: the
 * same input always gives the same verdict (no network, no randomness, no clock).
 *
 * @example
 *   scoreFormSubmission({ message: 'Buy now!!!! http://a.example http://b.example http://c.example', honeypot: 'x' }, 50)
 *   // { score: 100, isSpam: true, threshold: 50, reasons: [{ rule: 'honeypot', weight: 60, detail: '...' }, ...] }
 */
export function scoreFormSubmission(form: FormSubmission, threshold: number): SpamVerdict {
  const reasons: SpamReason[] = [];
  for (const rule of SPAM_RULES) {
    const hit = rule.check(form);
    if (hit) reasons.push({ rule: rule.rule, weight: hit.weight ?? rule.weight, detail: hit.detail });
  }
  const score = Math.min(
    100,
    reasons.reduce((sum, r) => sum + r.weight, 0),
  );
  return { score, isSpam: score >= threshold, threshold, reasons };
}
