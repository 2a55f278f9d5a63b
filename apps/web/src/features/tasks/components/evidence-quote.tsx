import { useTranslation } from 'react-i18next';

/** The passage of the story that shows a target completed, as the judge quoted it. */
export function EvidenceQuote({ text, testId }: { text: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <blockquote className="tl-tasks-target__evidence" data-testid={testId}>
      <span className="tl-tasks-target__evidence-label">{t('tasks.target.evidence')}</span>
      {text}
    </blockquote>
  );
}
