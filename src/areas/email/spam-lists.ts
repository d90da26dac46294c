/**
 * Word lists shipped with the spam score (small on purpose: deterministic, no network).
 * Matching is case-insensitive on whole words after NFKC normalisation.
 */

/** Throwaway-mailbox providers; a sub-domain of one (x.mailinator.com) counts too. */
export const DISPOSABLE_DOMAINS: ReadonlySet<string> = new Set([
  '0-mail.com', '10minutemail.com', '10minutemail.net', '20minutemail.com', '33mail.com', 'anonbox.net',
  'burnermail.io', 'discard.email', 'dispostable.com', 'dropmail.me', 'emailondeck.com', 'fakeinbox.com',
  'fakemail.net', 'getairmail.com', 'getnada.com', 'grr.la', 'guerrillamail.biz', 'guerrillamail.com',
  'guerrillamail.de', 'guerrillamail.net', 'guerrillamail.org', 'guerrillamailblock.com', 'harakirimail.com',
  'incognitomail.org', 'jetable.org', 'mail-temp.com', 'mailcatch.com', 'maildrop.cc', 'mailinator.com',
  'mailinator.net', 'mailnesia.com', 'mailpoof.com', 'mintemail.com', 'mohmal.com', 'moakt.com', 'mytemp.email',
  'nada.email', 'pokemail.net', 'sharklasers.com', 'spam4.me', 'spambox.us', 'spamgourmet.com', 'temp-mail.io',
  'temp-mail.org', 'tempail.com', 'tempmail.com', 'tempmail.net', 'tempmailo.com', 'tempr.email', 'throwawaymail.com',
  'trash-mail.com', 'trashmail.com', 'trashmail.de', 'trashmail.net', 'wegwerfmail.de', 'yopmail.com', 'yopmail.fr',
  'yopmail.net',
]);

/** Phrases typical of form spam (SEO offers, pharma, finance scams, prizes). */
export const SPAM_PHRASES: readonly string[] = [
  'act now', 'backlinks', 'best price', 'bitcoin investment', 'buy now', 'casino', 'cheap', 'cialis',
  'click here', 'congratulations you have won', 'crypto investment', 'dear friend', 'double your income',
  'earn money', 'earn extra cash', 'first page of google', 'forex', 'free gift', 'guaranteed', 'increase your traffic',
  'limited time offer', 'loan approval', 'lottery', 'make money fast', 'no credit check', 'online pharmacy',
  'payday loan', 'rank your website', 'replica watches', 'risk free', 'seo services', 'special promotion',
  'unsubscribe', 'viagra', 'weight loss', 'winner', 'work from home', '100% free',
];

/**
 * User-Agent fragments of HTTP libraries, headless browsers and crawlers (not browsers people use).
 * Crawlers name themselves `…bot/1.0` (Googlebot, bingbot, YandexBot, GPTBot, AhrefsBot, …); a bare
 * `…bot` without the version slash is not enough, since phone models are named so too (CUBOT_X30).
 */
export const BOT_USER_AGENT = /curl|wget|python-requests|python-urllib|aiohttp|go-http-client|okhttp|java\/|libwww|httpclient|axios|node-fetch|headless|phantomjs|selenium|puppeteer|scrapy|\bbot\b|bot\/|bot-https|spider|crawler|slurp|facebookexternalhit|bytespider|petalbot/i;
