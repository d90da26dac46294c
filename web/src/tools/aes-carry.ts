// The AES page's pure logic: which key source a form uses, and the decrypt form an encryption leads to.
import type { Inputs } from './types';

/** Where the key comes from: a key the user has, a passphrase (scrypt), or one the service generates (encrypt only). */
export type KeySource = 'key' | 'passphrase' | 'generate';

/** The key source the inputs use: the secret field that is set, or null when neither is. */
export function detectKeySource(inputs: Inputs): KeySource | null {
  if (typeof inputs.passphrase === 'string' && inputs.passphrase !== '') return 'passphrase';
  if (typeof inputs.key === 'string' && inputs.key !== '') return 'key';
  return null;
}

const text = (value: unknown): string =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/** decrypt reads utf8, hex or base64 back; a base64url plaintext comes back as base64. */
const PLAINTEXT_BACK: Record<string, string> = { hex: 'hex', base64: 'base64', base64url: 'base64' };

/**
 * The decrypt form for what `encrypt` answered to `body`: ciphertext, IV and tag, the key (the one
 * sent, or the one generated) or the passphrase with its salt and scrypt parameters, the AAD, and the
 * plaintext's encoding; every other decrypt field emptied.
 *
 * @example
 *   decryptInputsOf({ plaintext: 'hi' }, { ciphertext: 'Zm8=', iv: 'aXY=', tag: 'dGFn', key: 'a2V5' })
 *   // { ciphertext: 'Zm8=', iv: 'aXY=', tag: 'dGFn', key: 'a2V5', passphrase: '', ... }
 */
export function decryptInputsOf(body: Record<string, unknown>, answer: Record<string, unknown>): Inputs {
  const passphrase = text(body.passphrase);
  return {
    ciphertext: text(answer.ciphertext),
    ciphertext_encoding: '',
    iv: text(answer.iv),
    iv_encoding: '',
    tag: text(answer.tag),
    tag_encoding: '',
    algorithm: '',
    key: passphrase === '' ? text(answer.key ?? body.key) : '',
    key_encoding: passphrase === '' && answer.key === undefined ? text(body.key_encoding) : '',
    passphrase,
    salt: passphrase === '' ? '' : text(answer.salt),
    salt_encoding: '',
    kdf: '',
    kdf_params: passphrase === '' || answer.kdf_params === undefined ? '' : JSON.stringify(answer.kdf_params, null, 2),
    aad: text(body.aad),
    aad_encoding: text(body.aad_encoding),
    plaintext_encoding: PLAINTEXT_BACK[text(body.plaintext_encoding)] ?? '',
  };
}
