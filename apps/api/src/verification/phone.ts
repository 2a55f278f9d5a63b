import { ErrorCode, type CountryCodes } from '@taleloom/contracts';
import {
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js/max';
import { AppException } from '../common/app-exception';

export interface ParsedPhone {
  /** +8613800138000 */
  e164: string;
  /** 86 */
  countryCode: string;
  /** 13800138000 */
  national: string;
}

let cached: CountryCodes | null = null;

/** Calling code -> regions, from libphonenumber's metadata (e.g. { "1": ["US","CA",...], "86": ["CN"] }). */
export function countryCodes(): CountryCodes {
  if (cached) return cached;
  const map: CountryCodes = {};
  for (const region of getCountries()) {
    const code = getCountryCallingCode(region as CountryCode);
    (map[code] ??= []).push(region);
  }
  for (const regions of Object.values(map)) regions.sort();
  cached = map;
  return map;
}

/** Validates a national number under a calling code and normalises it to E.164 (server-side truth). */
export function parsePhone(countryCode: string, phoneNum: string): ParsedPhone {
  if (!/^\d{1,3}$/.test(countryCode) || !countryCodes()[countryCode]) {
    throw new AppException(ErrorCode.COUNTRY_CODE_UNKNOWN);
  }
  if (!/^\d{6,15}$/.test(phoneNum)) throw new AppException(ErrorCode.PHONE_INVALID);
  const parsed = parsePhoneNumberFromString(`+${countryCode}${phoneNum}`);
  if (!parsed || !parsed.isValid() || parsed.countryCallingCode !== countryCode) {
    throw new AppException(ErrorCode.PHONE_INVALID);
  }
  return { e164: parsed.number, countryCode, national: parsed.nationalNumber };
}
