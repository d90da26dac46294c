// Fields that exclude each other (a secret or a public key; a key or a passphrase), chosen with radio
// buttons: the chosen group's fields show, the others are emptied (the API refuses a mix) and kept
// aside, so choosing their group again brings them back.
import { useRef, useState } from 'preact/hooks';
import type { Inputs, ToolPageProps } from './types';
import './jwt.css';

export interface FieldChoice<G extends string> {
  /** The chosen group: the one whose fields are set (a carried form, a shared link), else the last chosen. */
  group: G;
  choose(group: G): void;
}

/**
 * `groups` names each group's fields; `detect` says which group the inputs use, or null when none.
 *
 * @example
 *   const { group, choose } = useFieldChoice(props, { secret: ['secret'], public: ['public_key'] }, detect, 'secret');
 */
export function useFieldChoice<G extends string>(
  { inputs, setInputs }: ToolPageProps,
  groups: Record<G, string[]>,
  detect: (inputs: Inputs) => G | null,
  fallback: G,
): FieldChoice<G> {
  const [chosen, setChosen] = useState<G>(() => detect(inputs) ?? fallback);
  const stash = useRef<Inputs>({});
  const group = detect(inputs) ?? chosen;
  const choose = (next: G) => {
    const update: Inputs = {};
    for (const [name, names] of Object.entries(groups) as [G, string[]][])
      for (const field of names) {
        if (!(field in inputs)) continue;
        if (name === next) {
          if (stash.current[field] !== undefined && inputs[field] === '') update[field] = stash.current[field];
        } else {
          if (inputs[field] !== '') stash.current[field] = inputs[field];
          update[field] = '';
        }
      }
    setChosen(next);
    setInputs((previous) => ({ ...previous, ...update }));
  };
  return { group, choose };
}

/** The radio buttons of a choice, in a fieldset with its legend. */
export function ChoiceFieldset<G extends string>({
  legend,
  name,
  options,
  choice,
}: {
  legend: string;
  /** The radio group's name, unique on the page. */
  name: string;
  options: { value: G; label: string }[];
  choice: FieldChoice<G>;
}) {
  return (
    <fieldset class="jwt-choice">
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option.value} class="jwt-choice-option">
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={choice.group === option.value}
            onChange={() => choice.choose(option.value)}
          />
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}
