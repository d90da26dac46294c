import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { scoreFormSubmission, SPAM_RULES } from './spam-score.js';
import { postTool } from '../../http/tool-route.js';

const ruleList = SPAM_RULES.map((r) => `\`${r.rule}\` (${r.weight}): ${r.description}`).join('; ');

const body = {
  type: 'object',
  required: ['message'],
  properties: {
    message: { type: 'string', maxLength: 100000 },
    name: { type: 'string', maxLength: 1000 },
    email: { type: 'string', maxLength: 1000 },
    subject: { type: 'string', maxLength: 1000 },
    ip: {
      type: 'string',
      anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }, { maxLength: 0 }],
      description:
        'Accepted for your records; no rule uses it (no network lookups). An empty string (a blank form field) is accepted as no address.',
    },
    user_agent: { type: 'string', maxLength: 2000 },
    honeypot: {
      type: 'string',
      maxLength: 10000,
      description: 'Value of a hidden field; any non-empty value (even only spaces) means a bot filled it.',
    },
    time_to_submit_ms: {
      type: 'integer',
      minimum: 0,
      maximum: 2592000000,
      description: 'Time between showing the form and submitting it.',
    },
    threshold: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
  },
  additionalProperties: false,
  examples: [
    {
      name: 'Ana Lima',
      email: 'ana@example.com',
      subject: 'Team pricing',
      message: 'Hi, could you send pricing for a team of 10? Thanks!',
      time_to_submit_ms: 42000,
    },
    {
      name: 'SEO Expert',
      email: 'win@mailinator.com',
      message: 'CHEAP backlinks!!!! http://x.example http://y.example http://z.example',
      honeypot: 'x',
      time_to_submit_ms: 800,
    },
  ],
} as const;

const response = {
  type: 'object',
  required: ['score', 'is_spam', 'threshold', 'reasons'],
  properties: {
    score: { type: 'integer', minimum: 0, maximum: 100 },
    is_spam: { type: 'boolean' },
    threshold: { type: 'integer' },
    reasons: {
      type: 'array',
      items: {
        type: 'object',
        required: ['rule', 'weight', 'detail'],
        properties: { rule: { type: 'string' }, weight: { type: 'integer' }, detail: { type: 'string' } },
      },
    },
  },
  examples: [{ score: 0, is_spam: false, threshold: 50, reasons: [] }],
} as const;

interface Body {
  message: string;
  name?: string;
  email?: string;
  subject?: string;
  ip?: string;
  user_agent?: string;
  honeypot?: string;
  time_to_submit_ms?: number;
  threshold: number;
}

/** The email area (CONTRACT §5): `POST /v1/email/form-spam-score` → `scoreFormSubmission` (spam-score.ts). */
export default async function emailRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  void ctx;
  postTool(
    app,
    '/v1/email/form-spam-score',
    {
      area: 'email',
      schema: {
        operationId: 'scoreFormSpam',
        summary: 'Score a form submission for spam likelihood',
        description:
          'Deterministic rules (no network, no randomness); the weights of the rules that fire are added, the score is capped at 100 ' +
          `and \`is_spam\` is \`score >= threshold\` (default 50). Each fired rule is a reason \`{rule, weight, detail}\`, in this order. ` +
          'The honeypot counts whenever it is not the empty string: a whitespace-only value (" ") is filled in, as the contract says "non-empty = bot". ' +
          `Rules: ${ruleList}.`,
        body,
        response: { 200: response },
      },
    },
    (b: Body) => {
      const verdict = scoreFormSubmission(
        {
          message: b.message,
          name: b.name,
          email: b.email,
          subject: b.subject,
          ip: b.ip,
          userAgent: b.user_agent,
          honeypot: b.honeypot,
          timeToSubmitMs: b.time_to_submit_ms,
        },
        b.threshold,
      );
      return { score: verdict.score, is_spam: verdict.isSpam, threshold: verdict.threshold, reasons: verdict.reasons };
    },
  );
}
