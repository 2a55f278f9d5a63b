import { DEFAULT_COUNTRY_CODE, type CountryCodes } from '@taleloom/contracts';
import { Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { normalizeLanguage } from '../../../lib/i18n';

interface CountryCodeSelectProps {
  value?: string;
  onChange?: (value: string) => void;
  codes: CountryCodes | undefined;
  loading?: boolean;
  'data-testid'?: string;
}

/** The default calling code of a language: 86 for Chinese, 1 otherwise. */
export const defaultCountryCode = (language: string) => DEFAULT_COUNTRY_CODE[normalizeLanguage(language)];

/** Calling codes from the API, searchable by number or region name; the field shows "+86". */
export function CountryCodeSelect({ value, onChange, codes, loading, ...rest }: CountryCodeSelectProps) {
  const { t, i18n } = useTranslation();
  const options = useMemo(() => {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([i18n.language], { type: 'region' });
    } catch {
      names = null;
    }
    return Object.entries(codes ?? {})
      .map(([code, regions]) => {
        const label = regions
          .filter((r) => r !== '001')
          .slice(0, 3)
          .map((r) => names?.of(r) ?? r)
          .join(i18n.language.startsWith('zh') ? '、' : ', ');
        return { value: code, label: `+${code} ${label}`, search: `${code} ${regions.join(' ')} ${label}`.toLowerCase() };
      })
      .sort((a, b) => Number(a.value) - Number(b.value));
  }, [codes, i18n.language]);

  return (
    <Select
      value={value}
      onChange={onChange}
      loading={loading}
      options={options}
      showSearch={{ filterOption: (input, option) => Boolean(option?.search.includes(input.trim().replace(/^\+/, '').toLowerCase())) }}
      labelRender={({ value: v }) => `+${String(v)}`}
      popupMatchSelectWidth={280}
      aria-label={t('phone.countryCode')}
      className="tl-country-select"
      data-testid={rest['data-testid']}
    />
  );
}
