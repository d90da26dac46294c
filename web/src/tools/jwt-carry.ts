// Inputs carried from one tab of a tool page to another (a signed token to Verify, a ciphertext to
// Decrypt). The page sets the selected tab's inputs only, so values for another tab wait until it shows.
import { useEffect, useRef } from 'preact/hooks';
import type { Inputs, ToolPageProps } from './types';

export interface Carry {
  /** Put `inputs` into operation `id`'s form: now when it is the selected tab, else when it next shows. */
  fill(id: string, inputs: Inputs): void;
  /** Fill operation `id`'s form and switch to its tab. */
  open(id: string, inputs: Inputs): void;
}

/**
 * Call it in the renderer's top component (it outlives the tabs' panels).
 *
 * @example
 *   const carry = useCarry(props);
 *   <button onClick={() => carry.open('decrypt', { ciphertext, iv, tag, key })}>Decrypt this</button>
 */
export function useCarry({ operation, setInputs, selectOperation }: ToolPageProps): Carry {
  const pending = useRef<Record<string, Inputs>>({});
  const selected = useRef(operation.id);
  selected.current = operation.id;

  useEffect(() => {
    const carried = pending.current[operation.id];
    if (carried === undefined) return;
    delete pending.current[operation.id];
    setInputs((previous) => ({ ...previous, ...carried }));
  }, [operation.id]);

  const fill = (id: string, inputs: Inputs) => {
    if (id === selected.current) setInputs((previous) => ({ ...previous, ...inputs }));
    else pending.current[id] = { ...pending.current[id], ...inputs };
  };
  return {
    fill,
    open(id, inputs) {
      if (id === selected.current) return fill(id, inputs);
      pending.current[id] = { ...pending.current[id], ...inputs };
      selectOperation(id);
    },
  };
}
