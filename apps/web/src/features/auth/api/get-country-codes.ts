import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, CountryCodes } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';

export async function getCountryCodes(): Promise<CountryCodes> {
  const response = await apiClient.get<ApiSuccess<CountryCodes>>('/country-codes');
  return response.data;
}

export const countryCodesQueryOptions = () =>
  queryOptions({ queryKey: ['country-codes'], queryFn: getCountryCodes, staleTime: Infinity });

export function useCountryCodesQuery() {
  return useQuery(countryCodesQueryOptions());
}
