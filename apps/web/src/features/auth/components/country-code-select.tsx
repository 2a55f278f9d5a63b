import { DEFAULT_COUNTRY_CODE, type CountryCodes } from '@taleloom/contracts';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { normalizeLanguage } from '../../../lib/i18n';
import './country-code-select.css';

interface CountryCodeSelectProps {
  value?: string;
  onChange?: (value: string) => void;
  codes: CountryCodes | undefined;
  loading?: boolean;
  'data-testid'?: string;
}

/** The default calling code of a language: 86 for Chinese, 1 otherwise. */
export const defaultCountryCode = (language: string) => DEFAULT_COUNTRY_CODE[normalizeLanguage(language)];

/**
 * Calling codes from the API, named by region; the field shows "+86". A native select under a label:
 * the phone's own picker opens (typing jumps to a code or a region), and the sign-in page does not
 * carry a select component.
 */
export function CountryCodeSelect({ value, onChange, codes, loading, ...rest }: CountryCodeSelectProps) {
  const { t, i18n } = useTranslation();
  // Naming two hundred regions takes a phone a few hundred milliseconds: the field shows its value at
  // once, the list is made when the page is idle, or as soon as the field is reached.
  const [listed, setListed] = useState(false);
  const list = () => setListed(true);
  useEffect(() => {
    if (!codes || listed) return undefined;
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const id = idle(list);
    return () => cancel(id);
  }, [codes, listed]);
  const options = useMemo(() => {
    if (!listed) return value ? [{ value, label: `+${value}` }] : [];
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([i18n.language], { type: 'region' });
    } catch {
      names = null;
    }
    const list = Object.entries(codes ?? {})
      .map(([code, regions]) => {
        const label = regions
          .filter((r) => r !== '001')
          .slice(0, 3)
          .map((r) => names?.of(r) ?? r)
          .join(i18n.language.startsWith('zh') ? '、' : ', ');
        return { value: code, label: `+${code} ${label}` };
      })
      .sort((a, b) => Number(a.value) - Number(b.value));
    // The chosen code is an option even before the list has come.
    if (value && !list.some((o) => o.value === value)) list.unshift({ value, label: `+${value}` });
    return list;
  }, [codes, i18n.language, value, listed]);

  return (
    <span className="tl-country-select" data-testid={rest['data-testid']}>
      <span className="tl-country-select__value" aria-hidden="true">
        {value ? `+${value}` : ''}
      </span>
      <span className={`tl-country-select__arrow${loading ? ' tl-country-select__arrow--loading' : ''}`} aria-hidden="true" />
      <select
        className="tl-country-select__native"
        value={value ?? ''}
        onChange={(e) => onChange?.(e.target.value)}
        onPointerDown={list}
        onFocus={list}
        aria-label={t('phone.countryCode')}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </span>
  );
}
