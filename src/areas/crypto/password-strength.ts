import { createRequire } from 'node:module';
import type * as Core from '@zxcvbn-ts/core';
import type * as Common from '@zxcvbn-ts/language-common';
import type * as English from '@zxcvbn-ts/language-en';

// zxcvbn is required on first use, not imported: the route schemas import this module for its
// constants, and the main thread, which never estimates, should not hold the dictionaries. require
// keeps the estimate synchronous, as the crypto worker's tasks are.
const require = createRequire(import.meta.url);

/** zxcvbn score → the word `password-strength` answers. */
export const STRENGTH_BY_SCORE = ['very_weak', 'weak', 'fair', 'strong', 'very_strong'] as const;

/** The estimator only reads this many characters (its matching is quadratic in the length); checks see the whole password. */
export const ESTIMATOR_MAX_LENGTH = 128;

/** The l33t matcher gives up on a password with more characters it could substitute than this. */
const L33T_MAX_SUBSTITUTIONS = 20;

export interface PasswordStrength {
  score: number;
  strength: (typeof STRENGTH_BY_SCORE)[number];
  entropyBits: number;
  crackTimeSeconds: number;
  crackTimeDisplay: string;
  feedback: { warning: string | null; suggestions: string[] };
  checks: { length: number; lowercase: boolean; uppercase: boolean; digits: boolean; symbols: boolean };
}

let estimator: Core.ZxcvbnFactory | undefined;

// Built on first use: the dictionaries are large, take a moment to index, and most processes never need them.
function getEstimator(): Core.ZxcvbnFactory {
  if (estimator) return estimator;
  const core = require('@zxcvbn-ts/core') as typeof Core;
  const common = require('@zxcvbn-ts/language-common') as typeof Common;
  const english = require('@zxcvbn-ts/language-en') as typeof English;
  estimator = new core.ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
    maxLength: ESTIMATOR_MAX_LENGTH,
    // Every combination of a password's l33t characters is tried: at the default cap (100) a password
    // of symbols takes seconds; one with more than 20 such characters is strong whatever they stand for.
    l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
  });
  return estimator;
}

/**
 * Estimate how hard a password is to guess with zxcvbn (dictionaries, keyboard patterns,
 * dates, l33t), plus simple character-class checks. Crack time is for an offline attack on a
 * slow hash (10^4 guesses per second).
 *
 * @example
 *   estimatePasswordStrength('password123').strength // 'very_weak'
 */
export function estimatePasswordStrength(password: string, userInputs: string[] = []): PasswordStrength {
  const result = getEstimator().check(password, userInputs);
  const crack = result.crackTimes.offlineSlowHashingXPerSecond;
  return {
    score: result.score,
    strength: STRENGTH_BY_SCORE[result.score],
    entropyBits: Math.round(Math.log2(result.guesses) * 100) / 100,
    crackTimeSeconds: crack.seconds,
    crackTimeDisplay: crack.display,
    feedback: { warning: result.feedback.warning || null, suggestions: result.feedback.suggestions },
    checks: {
      length: [...password].length,
      lowercase: /\p{Ll}/u.test(password),
      uppercase: /\p{Lu}/u.test(password),
      digits: /\p{Nd}/u.test(password),
      symbols: /[^\p{L}\p{Nd}]/u.test(password),
    },
  };
}
