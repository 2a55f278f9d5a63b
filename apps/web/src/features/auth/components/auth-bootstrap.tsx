import { useEffect } from 'react';
import { isApiClientError } from '../../../lib/api-client';
import { useUserInfoQuery } from '../api/get-user-info';
import { useSession } from '../hooks/use-session';

/** Fetches the user info at start when a token is stored. Failures are only logged (a 401 logs out in the API client). */
export function AuthBootstrap() {
  const { token } = useSession();
  const { error } = useUserInfoQuery(token);

  useEffect(() => {
    if (error && !(isApiClientError(error) && error.status === 401)) {
      console.error('Failed to fetch user info', error);
    }
  }, [error]);

  return null;
}
