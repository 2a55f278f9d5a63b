import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { clearSession } from '../../../lib/storage';
import { useFeedback } from '../../../components/feedback';

/** Removes the token and the user info, drops cached data and goes to /login. */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message } = useFeedback();
  const { t } = useTranslation();

  return useCallback(() => {
    clearSession();
    queryClient.clear();
    navigate('/login', { replace: true });
    void message.success(t('userMenu.loggedOut'));
  }, [navigate, queryClient, message, t]);
}
