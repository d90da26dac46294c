// Finding a tool: every word typed must appear in its name, keywords, description or operations;
// name matches rank first, then keywords, then the rest, recently used tools first among equals.
import { TOOLS } from './registry';
import type { ToolEntry } from './types';

const RECENT_KEY = 'devutil.recentTools';
const RECENT_MAX = 6;

/** The slugs of the tools opened lately, newest first (empty when storage is refused). */
export function recentTools(): string[] {
  try {
    const value = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]') as unknown;
    return Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

/** Remember that the tool `slug` was opened. */
export function rememberTool(slug: string): void {
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify([slug, ...recentTools().filter((s) => s !== slug)].slice(0, RECENT_MAX)));
  } catch {
    // Storage refused: the index just does not list recent tools.
  }
}

/** How well one word matches a tool; 0 when it does not. */
function wordScore(tool: ToolEntry, word: string): number {
  const name = tool.name.toLowerCase();
  if (name.split(/[\s,]+/).some((part) => part.startsWith(word))) return 100;
  if (name.includes(word)) return 80;
  if (tool.keywords.some((k) => k.toLowerCase() === word)) return 70;
  if (
    tool.keywords.some((k) =>
      k
        .toLowerCase()
        .split(/\s+/)
        .some((part) => part.startsWith(word)),
    )
  )
    return 60;
  if (tool.slug.includes(word) || tool.keywords.some((k) => k.toLowerCase().includes(word))) return 40;
  const rest = [tool.description, ...tool.operations.map((o) => `${o.label} ${o.description}`)].join(' ').toLowerCase();
  return rest.includes(word) ? 20 : 0;
}

/** How well `query` matches `tool` (0: not at all); an empty query matches every tool a little. */
export function matchScore(tool: ToolEntry, query: string): number {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 1;
  let total = 0;
  for (const word of words) {
    const score = wordScore(tool, word);
    if (score === 0) return 0;
    total += score;
  }
  return total;
}

/**
 * The tools matching `query`, best first; among equals, recently used first, then the registry's order.
 *
 * @example
 *   searchTools('bcrypt', [])[0].slug // 'passwords'
 */
export function searchTools(query: string, recent: string[] = recentTools()): ToolEntry[] {
  const rank = (tool: ToolEntry) => {
    const i = recent.indexOf(tool.slug);
    return i === -1 ? recent.length : i;
  };
  return TOOLS.map((tool, order) => ({ tool, order, score: matchScore(tool, query) }))
    .filter((t) => t.score > 0)
    .sort((a, b) => b.score - a.score || rank(a.tool) - rank(b.tool) || a.order - b.order)
    .map((t) => t.tool);
}
