// The state of one tool page: each operation's inputs, answers and errors, and the calls behind them.
// Live operations are sent 100 ms after the last change (short enough that the answer to the last
// keystroke shows within about 150 ms, long enough that a burst of keys makes one call); a page never has more than one call in
// flight, one-off calls of its renderer included: a change made meanwhile waits for it, and an answer to an input that has since
// changed is dropped (a later input wins).
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useSession } from '../session';
import { callErrorOf, knowCredits, sendRequest } from './call';
import { fieldsOf, fitInputs, initialInputs, prepareRequest, specOf, type Preparation } from './operations';
import type { CallError, Credits, FieldSpec, Inputs, OperationSpec, Outcome, ToolEntry, ToolOperation, ToolPageProps } from './types';

export const DEBOUNCE_MS = 100;

/** An operation of the page with its schema and fields. */
export interface PageOperation {
  operation: ToolOperation;
  spec: OperationSpec;
  fields: FieldSpec[];
}

/** What the page shows besides the renderer's part. */
export interface ToolPageState {
  props: ToolPageProps;
  /** The selected operation's request as the inputs stand (for curl), or why it cannot be sent. */
  preparation: Preparation;
  /** The credits after the last call of this page (null: none yet, or not metered). */
  credits: { value: Credits | null } | null;
  /** Every operation's inputs, for "Share". */
  inputsOf(id: string): Inputs;
}

interface ViewState {
  selected: string;
  inputs: Record<string, Inputs>;
  outcomes: Record<string, Outcome | null>;
  errors: Record<string, CallError | null>;
  busy: Record<string, boolean>;
  credits: { value: Credits | null } | null;
}

interface Pending {
  id: string;
  seq: number;
  inputs: Inputs;
}

function missingError(page: PageOperation, names: string[]): CallError {
  const fieldErrors = Object.fromEntries(
    names.map((name) => [name, `${page.fields.find((f) => f.name === name)?.label ?? name} is required.`]),
  );
  return { detail: 'Fill in the required fields.', code: 'missing_fields', status: 0, fieldErrors };
}

/**
 * Everything a tool page needs, for `tool`, opening on `restored` (a shared link's state) when given.
 *
 * @example
 *   const { props, preparation, credits } = useToolPage(tool, null);
 */
export function useToolPage(tool: ToolEntry, restored: { operation: string; inputs: Record<string, unknown> } | null): ToolPageState {
  const { api, account } = useSession();
  const pages = useMemo<PageOperation[]>(
    () =>
      tool.operations.map((operation) => {
        const spec = specOf(operation);
        return { operation, spec, fields: fieldsOf(operation, spec) };
      }),
    [tool],
  );
  const pageOf = (id: string): PageOperation => pages.find((p) => p.operation.id === id) ?? pages[0];

  const [view, setView] = useState<ViewState>(() => {
    const inputs: Record<string, Inputs> = {};
    for (const page of pages) inputs[page.operation.id] = { ...initialInputs(page.fields, page.spec), ...page.operation.initial };
    let selected = pages[0].operation.id;
    if (restored && pages.some((p) => p.operation.id === restored.operation)) {
      selected = restored.operation;
      inputs[selected] = fitInputs(pageOf(selected).fields, inputs[selected], restored.inputs);
    }
    return { selected, inputs, outcomes: {}, errors: {}, busy: {}, credits: null };
  });
  // The latest state for callbacks that outlive a render (timers, answers).
  const latest = useRef(view);
  latest.current = view;

  const machine = useRef({
    seq: 0,
    latestSeq: {} as Record<string, number>,
    inFlight: null as AbortController | null,
    queue: new Map<string, Pending>(),
    // One-off calls (send) waiting for the call in flight; they go before the queue.
    waiting: [] as { controller: AbortController; start: () => void }[],
    timer: undefined as ReturnType<typeof setTimeout> | undefined,
    unmounted: false,
  });

  const patch = (update: (v: ViewState) => Partial<ViewState>) => {
    if (!machine.current.unmounted) setView((v) => ({ ...v, ...update(v) }));
  };

  useEffect(() => {
    knowCredits(account.credits.remaining);
    const m = machine.current;
    m.unmounted = false;
    return () => {
      m.unmounted = true;
      clearTimeout(m.timer);
      m.inFlight?.abort();
    };
  }, []);

  /** The call in flight has ended: a waiting one-off call goes next, else the queue. */
  const release = () => {
    const m = machine.current;
    m.inFlight = null;
    if (m.unmounted) return;
    const next = m.waiting.shift();
    if (next === undefined) return pump();
    m.inFlight = next.controller;
    next.start();
  };

  /** Send the oldest waiting submission, if no call is in flight. */
  const pump = () => {
    const m = machine.current;
    if (m.inFlight !== null || m.unmounted) return;
    const next = m.queue.values().next();
    if (next.done) return;
    const pending = next.value;
    m.queue.delete(pending.id);
    const page = pageOf(pending.id);
    const prepared = prepareRequest(page.spec, page.fields, pending.inputs);
    if (prepared.request === null) {
      // Checked when submitted; inputs cannot change after that, so this does not happen.
      pump();
      return;
    }
    const request = prepared.request;
    const controller = new AbortController();
    m.inFlight = controller;
    const settle = (update: (v: ViewState) => Partial<ViewState>) => {
      if (controller.signal.aborted) return;
      const current = m.latestSeq[pending.id] === pending.seq;
      // A stale answer is dropped; the newer submission is in the queue already.
      if (current) patch((v) => ({ ...update(v), busy: { ...v.busy, [pending.id]: m.queue.has(pending.id) } }));
      release();
    };
    sendRequest(api, request, controller.signal).then(
      ({ result, credits }) =>
        settle((v) => ({
          outcomes: { ...v.outcomes, [pending.id]: { operation: pending.id, request, result, credits } },
          errors: { ...v.errors, [pending.id]: null },
          credits: { value: credits },
        })),
      (err: unknown) =>
        settle((v) => ({
          errors: { ...v.errors, [pending.id]: callErrorOf(err, page.fields, page.operation.errorFields) },
        })),
    );
  };

  /** Queue a call of operation `id` with `inputs` (checked first: missing or unreadable fields are shown, not sent). */
  const submit = (id: string, inputs: Inputs, { live }: { live: boolean }) => {
    const m = machine.current;
    const page = pageOf(id);
    const prepared = prepareRequest(page.spec, page.fields, inputs);
    const seq = ++m.seq;
    m.latestSeq[id] = seq;
    m.queue.delete(id);
    if (prepared.request === null) {
      const invalid = Object.keys(prepared.invalid).length > 0;
      const error: CallError | null = invalid
        ? { detail: 'Some fields cannot be read.', code: 'invalid_input', status: 0, fieldErrors: prepared.invalid }
        : live
          ? null
          : missingError(page, prepared.missing);
      patch((v) => ({
        errors: { ...v.errors, [id]: error },
        busy: { ...v.busy, [id]: false },
        outcomes: live && !invalid ? { ...v.outcomes, [id]: null } : v.outcomes,
      }));
      return;
    }
    m.queue.set(id, { id, seq, inputs });
    patch((v) => ({ busy: { ...v.busy, [id]: true } }));
    pump();
  };

  const isLive = (id: string) => pageOf(id).operation.mode === 'live';

  // A live operation answers as soon as its tab shows, without waiting for a change.
  useEffect(() => {
    const id = view.selected;
    if (isLive(id) && view.outcomes[id] === undefined && !view.busy[id]) submit(id, view.inputs[id], { live: true });
  }, [view.selected]);

  const setInputs = (next: Inputs | ((previous: Inputs) => Inputs)) => {
    const id = latest.current.selected;
    const inputs = typeof next === 'function' ? next(latest.current.inputs[id]) : next;
    latest.current = { ...latest.current, inputs: { ...latest.current.inputs, [id]: inputs } };
    patch((v) => ({ inputs: { ...v.inputs, [id]: inputs } }));
    if (!isLive(id)) return;
    const m = machine.current;
    clearTimeout(m.timer);
    // An answer already on its way is for the input before this change: dropped when it comes.
    m.latestSeq[id] = ++m.seq;
    patch((v) => ({ busy: { ...v.busy, [id]: true } }));
    m.timer = setTimeout(() => submit(id, latest.current.inputs[id], { live: true }), DEBOUNCE_MS);
  };

  const run = () => {
    const id = latest.current.selected;
    clearTimeout(machine.current.timer);
    submit(id, latest.current.inputs[id], { live: false });
  };

  const send = async (id: string, inputs: Inputs): Promise<Outcome> => {
    const page = pageOf(id);
    const prepared = prepareRequest(page.spec, page.fields, inputs);
    if (prepared.request === null) throw missingError(page, prepared.missing);
    const m = machine.current;
    const controller = new AbortController();
    if (m.inFlight === null) m.inFlight = controller;
    else await new Promise<void>((start) => m.waiting.push({ controller, start }));
    try {
      const { result, credits } = await sendRequest(api, prepared.request, controller.signal);
      patch(() => ({ credits: { value: credits } }));
      return { operation: id, request: prepared.request, result, credits };
    } catch (err) {
      throw callErrorOf(err, page.fields, page.operation.errorFields);
    } finally {
      release();
    }
  };

  const selected = pageOf(view.selected);
  const inputs = view.inputs[selected.operation.id];
  const preparation = prepareRequest(selected.spec, selected.fields, inputs);
  const props: ToolPageProps = {
    tool,
    operation: selected.operation,
    spec: selected.spec,
    fields: selected.fields,
    inputs,
    setInputs,
    run,
    call: {
      busy: view.busy[selected.operation.id] === true,
      outcome: view.outcomes[selected.operation.id] ?? null,
      error: view.errors[selected.operation.id] ?? null,
      missing: preparation.missing,
    },
    selectOperation: (id) => {
      if (pages.some((p) => p.operation.id === id)) patch(() => ({ selected: id }));
    },
    send,
  };
  return { props, preparation, credits: view.credits, inputsOf: (id) => view.inputs[id] };
}
