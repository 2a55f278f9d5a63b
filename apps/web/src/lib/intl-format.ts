// One formatter per language and options, made once, not per call: making an Intl formatter loads the
// language's data (in a phone-profile trace of /stories, 4x slower CPU, a card's date took about 130 ms).
const numbers = new Map<string, Intl.NumberFormat>();
const dates = new Map<string, Intl.DateTimeFormat>();

function cached<F>(cache: Map<string, F>, language: string, options: object | undefined, make: () => F): F {
  const key = `${language}|${JSON.stringify(options ?? {})}`;
  let formatter = cache.get(key);
  if (!formatter) {
    formatter = make();
    cache.set(key, formatter);
  }
  return formatter;
}

/** A number in the interface language (grouping as the language writes it). */
export function formatNumber(n: number, language: string, options?: Intl.NumberFormatOptions): string {
  return cached(numbers, language, options, () => new Intl.NumberFormat(language, options)).format(n);
}

/** A date and time in the interface language: a medium date and a short time unless told otherwise. */
export function formatDateTime(date: Date | number, language: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }): string {
  return cached(dates, language, options, () => new Intl.DateTimeFormat(language, options)).format(date);
}
