// The tools index: every tool as a card grouped by area, recently used ones first, filtered as you
// type in "Search tools".
import { useState } from 'preact/hooks';
import { Link, navigate } from '../router';
import { AREAS, TOOLS } from '../tools/registry';
import { matchScore, recentTools } from '../tools/search';
import type { ToolEntry } from '../tools/types';

function ToolCard({ tool }: { tool: ToolEntry }) {
  return (
    <li class="tool-card card">
      <h3>
        <Link href={`/tools/${tool.slug}`}>{tool.name}</Link>
      </h3>
      <p>{tool.description}</p>
    </li>
  );
}

function CardGroup({ id, title, tools }: { id: string; title: string; tools: ToolEntry[] }) {
  return (
    <section class="tool-group" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul class="tool-cards">
        {tools.map((tool) => (
          <ToolCard key={tool.slug} tool={tool} />
        ))}
      </ul>
    </section>
  );
}

/** Every developer utility, found by "Search tools" (also `Ctrl+K` / `⌘K` from anywhere). */
export function ToolsView() {
  const [query, setQuery] = useState('');
  const [recent] = useState(recentTools);
  const matching = TOOLS.filter((tool) => matchScore(tool, query) > 0);
  // Enter opens the best match, as the palette does.
  const best = [...matching].sort((a, b) => matchScore(b, query) - matchScore(a, query))[0];
  const recentlyUsed = recent.map((slug) => TOOLS.find((t) => t.slug === slug)).filter((t): t is ToolEntry => t !== undefined);
  const searching = query.trim() !== '';
  return (
    <section class="tools-index">
      <h1>Tools</h1>
      <p>
        The service's developer utilities as pages, each calling the API with your key. Press <kbd>Ctrl</kbd>+<kbd>K</kbd> (<kbd>⌘</kbd>
        <kbd>K</kbd> on a Mac) on any page to find one.
      </p>
      <div class="tools-search" role="search">
        <label for="tools-search">Search tools</label>
        <input
          id="tools-search"
          type="search"
          value={query}
          autoComplete="off"
          spellcheck={false}
          placeholder="base64, bcrypt, otp, uuid…"
          onInput={(e) => setQuery(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter' || !searching || best === undefined) return;
            e.preventDefault();
            navigate(`/tools/${best.slug}`);
          }}
        />
        <p class="hint" role="status">
          {searching && best !== undefined
            ? `${matching.length === 1 ? '1 tool matches' : `${matching.length} tools match`}; Enter opens ${best.name}.`
            : searching
              ? '0 tools match.'
              : ''}
        </p>
      </div>
      {!searching && recentlyUsed.length > 0 && <CardGroup id="tools-recent" title="Recently used" tools={recentlyUsed} />}
      {AREAS.map(({ area, name }) => {
        const tools = matching.filter((t) => t.area === area);
        return tools.length === 0 ? null : <CardGroup key={area} id={`tools-area-${area}`} title={name} tools={tools} />;
      })}
      {searching && matching.length === 0 && <p>No tool matches “{query.trim()}”.</p>}
    </section>
  );
}
