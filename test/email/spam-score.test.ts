import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const honest = {
  name: 'Ana Lima',
  email: 'ana.lima@example.com',
  subject: 'Pricing for a team',
  message: 'Hello, we are a team of 10 engineers and would like to know your pricing for annual plans. Thanks a lot, Ana',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  ip: '203.0.113.7',
  honeypot: '',
  time_to_submit_ms: 45000,
};

describe('POST /v1/email/form-spam-score', () => {
  let t: TestApp;
  const score = (body: object) => t.app.inject({ method: 'POST', url: '/v1/email/form-spam-score', headers: t.auth, payload: body });
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('an honest submission scores 0 and is not spam', async () => {
    const res = await score(honest);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { score: 0, is_spam: false, threshold: 50, reasons: [] });
  });

  it('a blank ip field (a form posts "") is no address, not a 422', async () => {
    const res = await score({ ...honest, ip: '' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().score, 0);
  });

  it('a quoted value in a reason is cut at whole characters, never inside a surrogate pair', async () => {
    const email = 'x' + '\u{1F600}'.repeat(60);
    const res = await score({ message: 'hello there', email });
    const reason = res.json().reasons.find((r: { rule: string }) => r.rule === 'invalid_email');
    assert.ok(reason, res.body);
    assert.equal(reason.detail, `"${'x' + '\u{1F600}'.repeat(60)}" is not an e-mail address`);
    const long = 'y' + '\u{1F600}'.repeat(120);
    const clipped = (await score({ message: 'hello there', email: long }))
      .json()
      .reasons.find((r: { rule: string }) => r.rule === 'invalid_email');
    assert.equal(clipped.detail, `"${'y' + '\u{1F600}'.repeat(99)}" is not an e-mail address`);
  });

  it('a message with only the required field is scored', async () => {
    const res = await score({ message: 'Could you call me back tomorrow morning?' });
    assert.deepEqual(res.json(), { score: 0, is_spam: false, threshold: 50, reasons: [] });
  });

  it('obvious spam is capped at 100 and lists every rule that fired', async () => {
    const res = await score({
      name: 'Best SEO http://seo.example',
      email: 'winner@mailinator.com',
      subject: 'CHEAP BACKLINKS GUARANTEED',
      message:
        'DEAR FRIEND!!!! BUY NOW cheap backlinks, first page of google: http://a.example http://b.example [url=http://c.example]click here[/url]',
      honeypot: 'http://bot.example',
      time_to_submit_ms: 900,
      user_agent: 'python-requests/2.31',
    });
    const body = res.json();
    assert.equal(body.score, 100);
    assert.equal(body.is_spam, true);
    assert.deepEqual(
      body.reasons.map((r: { rule: string }) => r.rule),
      [
        'honeypot',
        'submitted_too_fast',
        'link_density',
        'markup_links',
        'spam_phrases',
        'disposable_email',
        'link_in_name',
        'excessive_caps',
        'excessive_punctuation',
        'bot_user_agent',
      ],
    );
    assert.equal(body.reasons.find((r: { rule: string }) => r.rule === 'spam_phrases').weight, 40);
  });

  describe('each rule fires alone with its weight', () => {
    const cases: Array<[string, number, object, RegExp]> = [
      ['honeypot', 60, { honeypot: 'filled' }, /honeypot/],
      ['honeypot', 60, { honeypot: '   ' }, /honeypot/],
      ['honeypot', 60, { honeypot: '\n' }, /honeypot/],
      ['submitted_too_fast', 30, { time_to_submit_ms: 1200 }, /1200 ms/],
      [
        'link_density',
        25,
        {
          message:
            'Hello there, please look at https://a.example/1 and https://b.example/2 and www.c.example today, thank you very much for reading all of it',
        },
        /3 link/,
      ],
      ['link_density', 25, { message: 'Look: https://a.example/page' }, /1 link\(s\) in 2 word/],
      [
        'markup_links',
        20,
        { message: 'Hello, a question about <a href="https://x.example">your product</a> and its pricing for teams' },
        /HTML or BBCode/,
      ],
      [
        'spam_phrases',
        10,
        { message: 'Hello, I offer seo services for your company website, reply if you are interested in that.' },
        /seo services/,
      ],
      [
        'spam_phrases',
        20,
        { subject: 'Work from home', message: 'Hello, I can help with weight loss, reply if you are interested in that offer please.' },
        /weight loss, work from home/,
      ],
      ['disposable_email', 25, { email: 'someone@yopmail.com' }, /yopmail\.com/],
      ['disposable_email', 25, { email: 'someone@inbox.mailinator.com' }, /mailinator\.com/],
      ['invalid_email', 15, { email: 'not-an-address' }, /not an e-mail/],
      ['link_in_name', 20, { name: 'Ana www.shop.example' }, /name/],
      [
        'zero_width_characters',
        20,
        { message: 'Hello, I would like a fr\u200Bee quote for the annual plan for ten people in our team.' },
        /1 invisible/,
      ],
      [
        'mixed_scripts',
        20,
        { message: 'Hello, I would like a quote for the annual plan, p\u0430yment by card, for ten people.' },
        /mixes scripts/,
      ],
      ['excessive_caps', 10, { message: 'HELLO I WOULD LIKE A QUOTE FOR THE ANNUAL PLAN FOR TEN PEOPLE' }, /capitals/],
      ['excessive_punctuation', 5, { message: 'Hello, could you send me the pricing for the annual plan please????' }, /runs of/],
      ['bot_user_agent', 15, { user_agent: 'curl/8.5.0' }, /curl/],
      ['bot_user_agent', 15, { user_agent: '' }, /user agent ""/],
      ['bot_user_agent', 15, { user_agent: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)' }, /bingbot/],
      ['bot_user_agent', 15, { user_agent: 'Googlebot/2.1' }, /Googlebot/],
      [
        'bot_user_agent',
        15,
        { user_agent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.0; +https://openai.com/gptbot)' },
        /GPTBot/,
      ],
      [
        'bot_user_agent',
        15,
        { user_agent: 'Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)' },
        /Slurp/,
      ],
      [
        'bot_user_agent',
        15,
        { user_agent: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)' },
        /facebookexternalhit/,
      ],
      [
        'zero_width_characters',
        20,
        { message: 'Hello, I would like a quote for the annual plan via pay\u200Cpal for ten people in our team.' },
        /1 invisible/,
      ],
      ['empty_message', 10, { message: ' hi ' }, /empty/],
    ];
    for (const [rule, weight, change, detail] of cases) {
      it(`${rule} (${weight}) with ${JSON.stringify(change).slice(0, 70)}`, async () => {
        const res = await score({ ...honest, ...change });
        assert.equal(res.statusCode, 200);
        const body = res.json();
        assert.equal(body.reasons.length, 1, JSON.stringify(body.reasons));
        assert.equal(body.reasons[0].rule, rule);
        assert.equal(body.reasons[0].weight, weight);
        assert.match(body.reasons[0].detail, detail);
        assert.equal(body.score, weight);
        assert.equal(body.is_spam, weight >= 50);
      });
    }
  });

  it('ordinary text is not scored: emoji joiners, Persian zero-width non-joiners, a phone named …bot, an e-mail field left blank', async () => {
    for (const change of [
      { message: 'Our family \u{1F468}\u200D\u{1F469}\u200D\u{1F467} loved the stay, thank you for the lovely week by the sea.' },
      { message: 'Rainbow flag \u{1F3F3}\uFE0F\u200D\u{1F308} and a thumbs up \u{1F44D}\u{1F3FD} for the team, thanks for everything.' },
      { message: 'من می\u200Cخواهم این را بخرم و لطفا قیمت سالانه را برای من بفرستید' },
      { user_agent: 'Mozilla/5.0 (Linux; Android 10; CUBOT_X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36' },
      { email: '' },
      { email: '  ' },
    ]) {
      const res = await score({ ...honest, ...change });
      assert.deepEqual(res.json().reasons, [], JSON.stringify(change));
    }
  });

  it('spam phrases add 10 each up to 40', async () => {
    const res = await score({ ...honest, message: 'viagra cialis casino lottery forex payday loan replica watches are all here' });
    const reason = res.json().reasons.find((r: { rule: string }) => r.rule === 'spam_phrases');
    assert.equal(reason.weight, 40);
  });

  it('phrases match whole words only ("cheapest" is not "cheap", "winners" is not "winner")', async () => {
    const res = await score({
      ...honest,
      message: 'Which is the cheapest plan? Our winners team would like to know, thanks for your help.',
    });
    assert.deepEqual(res.json().reasons, []);
  });

  it('is_spam follows the threshold, which is echoed', async () => {
    const low = await score({ ...honest, time_to_submit_ms: 500, threshold: 30 });
    assert.deepEqual([low.json().score, low.json().is_spam, low.json().threshold], [30, true, 30]);
    const high = await score({ ...honest, time_to_submit_ms: 500, threshold: 31 });
    assert.deepEqual([high.json().score, high.json().is_spam, high.json().threshold], [30, false, 31]);
  });

  it('is deterministic: the same input gives the same answer', async () => {
    const body = { ...honest, message: 'cheap viagra http://x.example', time_to_submit_ms: 10 };
    const a = await score(body);
    const b = await score(body);
    assert.equal(a.body, b.body);
  });

  it('a pathological 100 000-character message is scored quickly (no regex backtracking blow-up)', async () => {
    const started = Date.now();
    const res = await score({ message: '<a '.repeat(33000) + 'x'.repeat(900) + '!'.repeat(3) });
    assert.equal(res.statusCode, 200);
    assert.ok(Date.now() - started < 1000, `took ${Date.now() - started} ms`);
  });

  describe('bad input → 422', () => {
    for (const [name, body, path] of [
      ['message missing', { name: 'x' }, 'message'],
      ['threshold 0', { message: 'hello there', threshold: 0 }, 'threshold'],
      ['threshold 101', { message: 'hello there', threshold: 101 }, 'threshold'],
      ['negative time_to_submit_ms', { message: 'hello there', time_to_submit_ms: -5 }, 'time_to_submit_ms'],
      ['time_to_submit_ms as a string', { message: 'hello there', time_to_submit_ms: '500' }, 'time_to_submit_ms'],
      ['ip that is not an address', { message: 'hello there', ip: 'localhost' }, 'ip'],
      ['unknown field', { message: 'hello there', phone: '123' }, 'phone'],
    ] as const) {
      it(name, async () => {
        const res = await score(body);
        assert.equal(res.statusCode, 422);
        assert.equal(res.json().code, 'validation_error');
        assert.equal(res.json().errors[0].path, path);
      });
    }
  });
});
