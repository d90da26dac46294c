import { type FieldType, simpleType } from './field-type.js';

const count = (what: string, max: number, def?: number) => ({
  type: 'integer',
  minimum: 1,
  maximum: max,
  ...(def === undefined ? {} : { default: def }),
  description: `Number of ${what} (1..${max}${def === undefined ? ', random when absent' : `, default ${def}`}).`,
});

/** Text, colours, money, files and other codes. */
export const TEXT_TYPES: FieldType[] = [
  simpleType('word', 'One lorem ipsum word.', (f) => f.lorem.word()),
  {
    name: 'words',
    description: 'Space-separated lorem ipsum words.',
    options: { count: count('words', 50, 3) },
    create: (f, o) => Object.assign(() => f.lorem.words(o.count as number), { cost: Math.max(1, (o.count as number) / 10) }),
  },
  {
    name: 'sentence',
    description: 'Lorem ipsum sentence.',
    options: { words: count('words', 50) },
    create: (f, o) =>
      Object.assign(() => f.lorem.sentence(o.words as number | undefined), {
        cost: Math.max(1, ((o.words as number | undefined) ?? 10) / 10),
      }),
  },
  {
    name: 'paragraph',
    description: 'Lorem ipsum paragraph.',
    options: { sentences: count('sentences', 20, 3) },
    // A sentence costs about half a typical value (measured: 20 sentences about 10).
    create: (f, o) => Object.assign(() => f.lorem.paragraph(o.sentences as number), { cost: Math.max(1, (o.sentences as number) / 2) }),
  },
  simpleType('slug', 'URL slug of lorem words.', (f) => f.lorem.slug()),
  simpleType('color', 'Hex colour #rrggbb.', (f) => f.color.rgb()),
  simpleType('color_name', 'Colour name.', (f) => f.color.human()),
  simpleType('currency_code', 'ISO 4217 currency code.', (f) => f.finance.currencyCode()),
  simpleType('currency_name', 'Currency name.', (f) => f.finance.currencyName()),
  simpleType('iban', 'IBAN with valid check digits.', (f) => f.finance.iban()),
  simpleType('bic', 'BIC / SWIFT code.', (f) => f.finance.bic()),
  simpleType('credit_card_number', 'Credit card number passing the Luhn check.', (f) => f.finance.creditCardNumber()),
  simpleType('credit_card_cvv', 'Three-digit card security code.', (f) => f.finance.creditCardCVV()),
  simpleType('account_number', 'Eight-digit bank account number.', (f) => f.finance.accountNumber()),
  simpleType('bitcoin_address', 'Bitcoin address.', (f) => f.finance.bitcoinAddress()),
  simpleType('ethereum_address', 'Ethereum address (0x + 40 hex digits).', (f) => f.finance.ethereumAddress()),
  simpleType('isbn', 'ISBN-13 with hyphens.', (f) => f.commerce.isbn()),
  simpleType('file_name', 'File name with extension.', (f) => f.system.fileName()),
  simpleType('file_extension', 'File extension without the dot.', (f) => f.system.fileExt()),
  simpleType('mime_type', 'MIME type.', (f) => f.system.mimeType()),
  simpleType('semver', 'Semantic version x.y.z.', (f) => f.system.semver()),
  simpleType('git_commit_sha', '40-hex-digit git commit id.', (f) => f.git.commitSha()),
];
