// The tool search dialog: "Search tools", the best matches as a list (arrow keys move, Enter
// opens, Escape closes), recently used tools first when nothing is typed.
import { useEffect, useRef, useState } from 'preact/hooks';
import { navigate } from '../router';
import { AREAS } from './registry';
import { searchTools } from './search';

const MAX_RESULTS = 10;
const areaName = (area: string) => AREAS.find((a) => a.area === area)?.name ?? area;

export function PaletteDialog({ onClose }: { onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const results = searchTools(query).slice(0, MAX_RESULTS);
  const current = Math.min(active, results.length - 1);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    // Escape closes the dialog natively; its close event must not outlive this dialog, or closing it
    // on unmount would shut a search opened again meanwhile.
    element.addEventListener('close', onClose);
    return () => {
      element.removeEventListener('close', onClose);
      element.close();
    };
  }, []);

  const open = (slug: string) => {
    onClose();
    navigate(`/tools/${slug}`);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + results.length) % Math.max(results.length, 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (results[current]) open(results[current].slug);
    }
  };

  return (
    <dialog ref={dialog} class="tool-palette" aria-label="Search tools">
      <input
        type="search"
        aria-label="Search tools"
        aria-controls="tool-palette-results"
        aria-activedescendant={results[current] ? `tool-palette-${results[current].slug}` : undefined}
        autoComplete="off"
        spellcheck={false}
        placeholder="Search tools: base64, bcrypt, otp…"
        value={query}
        onInput={(e) => {
          setQuery(e.currentTarget.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      <ul id="tool-palette-results" role="listbox" aria-label="Tools">
        {results.map((tool, i) => (
          <li
            key={tool.slug}
            id={`tool-palette-${tool.slug}`}
            role="option"
            aria-selected={i === current}
            class={i === current ? 'active' : undefined}
            onClick={() => open(tool.slug)}
            onMouseMove={() => setActive(i)}
          >
            <span class="tool-palette-name">{tool.name}</span> <span class="tool-palette-area">{areaName(tool.area)}</span>
          </li>
        ))}
      </ul>
      {results.length === 0 && <p class="hint">No tool matches “{query.trim()}”.</p>}
      <p class="hint tool-palette-keys">
        <kbd>↑</kbd> <kbd>↓</kbd> to move, <kbd>Enter</kbd> to open, <kbd>Esc</kbd> to close
      </p>
    </dialog>
  );
}
