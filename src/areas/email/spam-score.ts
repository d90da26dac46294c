import { SPAM_RULES, type FormSubmission } from './spam-rules.js';

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
  const score = Math.min(100, reasons.reduce((sum, r) => sum + r.weight, 0));
  return { score, isSpam: score >= threshold, threshold, reasons };
}
