// The geometry of the spam score's half-circle gauge, as SVG attribute values (the CSP allows no
// inline styles), and the totals of the rule table. Pure: no DOM.

/** The gauge's arc: centre (60, 60), radius 50, from the left end (0) to the right end (100). */
export const GAUGE_ARC = 'M 10 60 A 50 50 0 0 1 110 60';

/** A score of 0-100 as the arc's `stroke-dasharray` over `pathLength="100"`. */
export function gaugeDash(score: number): string {
  const clamped = Math.min(100, Math.max(0, score));
  return `${clamped} 100`;
}

/**
 * The tick across the arc at `threshold` (0-100), from radius 40 to 60.
 *
 * @example
 *   thresholdTick(50) // { x1: 60, y1: 20, x2: 60, y2: 0 }
 */
export function thresholdTick(threshold: number): { x1: number; y1: number; x2: number; y2: number } {
  const angle = Math.PI * (1 - Math.min(100, Math.max(0, threshold)) / 100);
  const at = (r: number) => ({
    x: Math.round((60 + r * Math.cos(angle)) * 100) / 100,
    y: Math.round((60 - r * Math.sin(angle)) * 100) / 100,
  });
  const inner = at(40);
  const outer = at(60);
  return { x1: inner.x, y1: inner.y, x2: outer.x, y2: outer.y };
}

/**
 * The sum of the rules' weights and whether the score was capped at 100 below it.
 *
 * @example
 *   ruleTotal([{ weight: 60 }, { weight: 30 }, { weight: 25 }]) // { sum: 115, capped: true }
 */
export function ruleTotal(reasons: readonly { weight: number }[]): { sum: number; capped: boolean } {
  const sum = reasons.reduce((total, r) => total + r.weight, 0);
  return { sum, capped: sum > 100 };
}

/** `submitted_too_fast` → `Submitted too fast`. */
export function ruleLabel(rule: string): string {
  const text = rule.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
