export type Draft = '4' | '6' | '7' | '2019-09' | '2020-12';

export interface DraftRow {
  draft: Draft;
  /** The dialect URI (`$schema`) of the draft's meta-schema. */
  dialect: string;
  /** `format` is an assertion by default (drafts 4-7) or only an annotation (2019-09, 2020-12). */
  assertsFormat: boolean;
  /** `$ref` makes sibling keywords, `$id` included, be ignored (drafts 4-7). */
  refHidesSiblings: boolean;
  /** Keyword that names a schema resource. */
  idKeyword: '$id' | 'id';
}

/** One row per supported draft (CONTRACT §3.3). */
export const DRAFTS: readonly DraftRow[] = [
  { draft: '4', dialect: 'http://json-schema.org/draft-04/schema', assertsFormat: true, refHidesSiblings: true, idKeyword: 'id' },
  { draft: '6', dialect: 'http://json-schema.org/draft-06/schema', assertsFormat: true, refHidesSiblings: true, idKeyword: '$id' },
  { draft: '7', dialect: 'http://json-schema.org/draft-07/schema', assertsFormat: true, refHidesSiblings: true, idKeyword: '$id' },
  {
    draft: '2019-09',
    dialect: 'https://json-schema.org/draft/2019-09/schema',
    assertsFormat: false,
    refHidesSiblings: false,
    idKeyword: '$id',
  },
  {
    draft: '2020-12',
    dialect: 'https://json-schema.org/draft/2020-12/schema',
    assertsFormat: false,
    refHidesSiblings: false,
    idKeyword: '$id',
  },
];

export const DRAFT_NAMES = DRAFTS.map((row) => row.draft);
export const DEFAULT_DRAFT: Draft = '2020-12';

/** `http://json-schema.org/draft-07/schema#` → `json-schema.org/draft-07/schema` (scheme and empty fragment ignored). */
function normalizeDialect(uri: string): string {
  return uri.replace(/^https?:\/\//, '').replace(/#$/, '');
}

/** Each draft under every spelling of its dialect URI that normalizes to it (http, https or no scheme; with or without `#`). */
const BY_DIALECT = new Map<string, DraftRow>(
  DRAFTS.flatMap((row) => {
    const bare = normalizeDialect(row.dialect);
    return ['', 'http://', 'https://']
      .flatMap((scheme) => [`${scheme}${bare}`, `${scheme}${bare}#`])
      .map((uri): [string, DraftRow] => [uri, row]);
  }),
);

/**
 * The draft a `$schema` value names, or undefined for a custom meta-schema or none.
 *
 * @example
 *   draftOfDialect('http://json-schema.org/draft-07/schema#') // → the draft 7 row
 */
export function draftOfDialect(uri: unknown): DraftRow | undefined {
  return typeof uri === 'string' ? BY_DIALECT.get(uri) : undefined;
}

/**
 * The row of a draft name.
 *
 * @example
 *   draftRow('7').dialect // → 'http://json-schema.org/draft-07/schema'
 */
export function draftRow(draft: Draft): DraftRow {
  return DRAFTS.find((row) => row.draft === draft)!;
}
