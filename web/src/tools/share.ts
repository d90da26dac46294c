// A tool page's inputs in the URL fragment (`#s=<base64url JSON>`): the fragment is never sent to
// the server, so a shared link's inputs stay out of its logs and out of Referer headers.
import type { Inputs } from './types';

/** What a shared link holds: the selected operation and its inputs. */
export interface SharedState {
  operation: string;
  inputs: Inputs;
}

function toBase64Url(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/**
 * The fragment of a link that opens the page with `state`.
 *
 * @example
 *   shareFragment({ operation: 'format', inputs: { number: '12' } }) // '#s=eyJvIjoiZm9ybWF0IiwiaSI6eyJudW1iZXIiOiIxMiJ9fQ'
 */
export function shareFragment(state: SharedState): string {
  return `#s=${toBase64Url(JSON.stringify({ o: state.operation, i: state.inputs }))}`;
}

/** The state in a fragment made by {@link shareFragment}; null for any other fragment or a damaged one. */
export function readShareFragment(hash: string): { operation: string; inputs: Record<string, unknown> } | null {
  const encoded = new URLSearchParams(hash.replace(/^#/, '')).get('s');
  if (encoded === null) return null;
  try {
    const value = JSON.parse(fromBase64Url(encoded)) as unknown;
    if (typeof value !== 'object' || value === null) return null;
    const { o, i } = value as { o?: unknown; i?: unknown };
    if (typeof o !== 'string' || typeof i !== 'object' || i === null || Array.isArray(i)) return null;
    return { operation: o, inputs: i as Record<string, unknown> };
  } catch {
    return null;
  }
}
