// `Ctrl+K` / `⌘K` from anywhere in the app opens the tool search as a dialog. Only the key listener
// is in the first view's bundle; the dialog and the registry load on the first press.
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

type Dialog = ComponentType<{ onClose(): void }>;

/** The key listener and, once opened, the search dialog; mount it once in the shell. */
export function ToolPalette() {
  const [Dialog, setDialog] = useState<Dialog | null>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== 'k' || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      event.preventDefault();
      setOpen(true);
      void import('./palette-dialog').then(
        (module) => setDialog(() => module.PaletteDialog),
        () => setOpen(false),
      );
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
  return open && Dialog !== null ? <Dialog onClose={() => setOpen(false)} /> : null;
}
