import { ALL_ERROR_CODES, SUPPORTED_LANGUAGES } from '@taleloom/contracts';
import { httpStatusOf } from './app-exception';
import { ERROR_MESSAGES } from './error-messages';

describe('error codes', () => {
  it.each(ALL_ERROR_CODES)('%s has an HTTP status and a message in every language', (code) => {
    expect(httpStatusOf(code)).toBeGreaterThanOrEqual(400);
    for (const language of SUPPORTED_LANGUAGES) expect(ERROR_MESSAGES[language][code].length).toBeGreaterThan(0);
  });
});
