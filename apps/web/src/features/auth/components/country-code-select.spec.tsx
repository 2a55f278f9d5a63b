import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CountryCodeSelect } from './country-code-select';

const codes = { '1': ['US', 'CA'], '44': ['GB'], '86': ['CN'] };
const optionTexts = () => Array.from(screen.getByRole('combobox').querySelectorAll('option'), (o) => o.textContent);

describe('CountryCodeSelect', () => {
  it('shows the chosen code at once and lists every region once the field is reached', () => {
    render(<CountryCodeSelect value="86" codes={codes} />);
    expect(optionTexts()).toEqual(['+86']);
    fireEvent.focus(screen.getByRole('combobox'));
    expect(optionTexts()).toEqual(['+1 United States, Canada', '+44 United Kingdom', '+86 China']);
    expect(screen.getByRole('combobox')).toHaveValue('86');
  });

  it('lists every region when the page is idle, without being reached', async () => {
    render(<CountryCodeSelect value="1" codes={codes} />);
    await waitFor(() => expect(optionTexts()).toHaveLength(3));
    expect(screen.getByRole('combobox')).toHaveValue('1');
  });
});
