// The mock data page's field table: one group per field with its name, its type (from GET
// /v1/mock-data/types, with the type's description) and the options that type takes, each an input
// of the kind its JSON Schema asks for; fields move up and down and are removed.
import { FieldInput, fieldId } from './form';
import { optionKind, optionShown, type FieldRow, type FieldTypeInfo } from './mock-data-fields';
import { labelOf } from './operations';
import type { FieldSpec, JsonSchema } from './types';

/** A field of the form that is not a request field of its own (a row's name, type or option). */
function spec(name: string, label: string, kind: FieldSpec['kind'], schema: JsonSchema, extra: Partial<FieldSpec> = {}): FieldSpec {
  return {
    name,
    label,
    kind,
    required: false,
    choices: [],
    defaultValue: undefined,
    description: schema.description,
    secret: false,
    schema,
    ...extra,
  };
}

function optionSpec(name: string, schema: JsonSchema, required: boolean): FieldSpec {
  const kind = optionKind(schema);
  const formKind = kind === 'boolean' ? 'checkbox' : kind === 'json' ? 'text' : kind;
  // Every type takes `nullable`: its label says enough, the null ratio's hint says the rest.
  const description = name === 'nullable' ? undefined : schema.description;
  return spec(name, labelOf(name), formKind, schema, { required, description, choices: (schema.enum ?? []).map(String) });
}

export interface FieldTableProps {
  rows: FieldRow[];
  types: Map<string, FieldTypeInfo>;
  errors: Record<string, string>;
  operationId: string;
  onChange(rows: FieldRow[]): void;
}

/** The fields as groups "Field 1", "Field 2", ..., with errors at the name, type or option they name (`row.part` keys). */
export function FieldTable({ rows, types, errors, operationId, onChange }: FieldTableProps) {
  const typeNames = [...types.keys()];
  const set = (index: number, row: FieldRow) => onChange(rows.map((r, i) => (i === index ? row : r)));
  const move = (index: number, step: number) => {
    const next = [...rows];
    [next[index], next[index + step]] = [next[index + step], next[index]];
    onChange(next);
  };
  return (
    <ol class="mock-fields">
      {rows.map((row, index) => {
        const id = (part: string) => fieldId(operationId, `f${row.key}-${part}`);
        const schema = types.get(row.type)?.options ?? {};
        const required = schema.required ?? [];
        const options = Object.entries(schema.properties ?? {}).filter(([name]) => optionShown(row, name));
        return (
          <li key={row.key}>
            <fieldset class="mock-field">
              <legend>Field {index + 1}</legend>
              <div class="mock-field-main">
                <FieldInput
                  field={spec('name', 'Name', 'text', { maxLength: 64 }, { required: true })}
                  id={id('name')}
                  value={row.name}
                  error={errors[`${index}.name`]}
                  onChange={(value) => set(index, { ...row, name: String(value) })}
                />
                <FieldInput
                  field={spec(
                    'type',
                    'Type',
                    'select',
                    {},
                    { required: true, choices: typeNames, description: types.get(row.type)?.description },
                  )}
                  id={id('type')}
                  value={row.type}
                  error={errors[`${index}.type`]}
                  onChange={(value) => set(index, { ...row, type: String(value), options: {} })}
                />
              </div>
              {options.length > 0 && (
                <div class="mock-field-options">
                  {options.map(([name, optionSchema]) => (
                    <FieldInput
                      key={name}
                      field={optionSpec(name, optionSchema, required.includes(name))}
                      id={id(name)}
                      value={row.options[name] ?? (optionKind(optionSchema) === 'boolean' ? optionSchema.default === true : '')}
                      error={errors[`${index}.options.${name}`]}
                      onChange={(value) => set(index, { ...row, options: { ...row.options, [name]: value } })}
                    />
                  ))}
                </div>
              )}
              {errors[`${index}.`] && <p class="tool-field-error">{errors[`${index}.`]}</p>}
              <div class="mock-field-actions">
                <button type="button" class="secondary" disabled={index === 0} onClick={() => move(index, -1)}>
                  Move up
                </button>
                <button type="button" class="secondary" disabled={index === rows.length - 1} onClick={() => move(index, 1)}>
                  Move down
                </button>
                <button
                  type="button"
                  class="danger"
                  disabled={rows.length === 1}
                  onClick={() => onChange(rows.filter((_, i) => i !== index))}
                >
                  Remove
                </button>
              </div>
            </fieldset>
          </li>
        );
      })}
    </ol>
  );
}
