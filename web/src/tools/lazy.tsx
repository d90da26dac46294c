// The tools views, loaded when first shown: their code, the request schemas and the editor stay out
// of the first view's bundle.
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** A component that loads `load` on first render, saying so meanwhile, and why not if it fails. */
function lazyView<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  return function LazyView(props: P) {
    const [state, setState] = useState<{ view?: ComponentType<P>; failed?: boolean }>({ view: loaded });
    useEffect(() => {
      if (loaded) return;
      load().then(
        (view) => setState({ view: (loaded = view) }),
        () => setState({ failed: true }),
      );
    }, []);
    if (state.view) {
      const View = state.view;
      return <View {...props} />;
    }
    if (state.failed)
      return (
        <p class="error" role="alert">
          This page could not be loaded. Reload to try again.
        </p>
      );
    return (
      <p class="hint" aria-busy="true">
        Loading…
      </p>
    );
  };
}

export const ToolsView = lazyView(() => import('../views/tools').then((m) => m.ToolsView));
export const ToolView = lazyView(() => import('../views/tool').then((m) => m.ToolView));
