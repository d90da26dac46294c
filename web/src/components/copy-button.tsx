import { useEffect, useState } from 'preact/hooks';

/**
 * Copy `text` to the clipboard. The Clipboard API needs a secure context (https or localhost); on a
 * plain-http address the text is put in a hidden textarea and copied with the older command.
 */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'offscreen';
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('The browser refused to copy.');
}

export interface CopyButtonProps {
  /** The button's accessible name, e.g. "Copy URL" or "Copy as cURL" (CONTRACT §8). */
  label: string;
  /** The text to copy, or a function that makes it when clicked. */
  text: string | (() => string);
  class?: string;
}

/** A button that copies text and says "Copied" (or why not) for a moment, announced to screen readers. */
export function CopyButton({ label, text, class: className }: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <span class="copy-button">
      <button
        type="button"
        class={className ?? 'secondary'}
        onClick={() => {
          copyText(typeof text === 'function' ? text() : text).then(
            () => setState('copied'),
            () => setState('failed'),
          );
        }}
      >
        {label}
      </button>
      <span class="copy-status" role="status">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Could not copy' : ''}
      </span>
    </span>
  );
}
