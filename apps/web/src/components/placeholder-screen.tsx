import { Button, Result } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';

interface PlaceholderScreenProps {
  icon: ReactNode;
  title: string;
  body: ReactNode;
  actionLabel: string;
  actionTo?: string;
  testId?: string;
}

/** A centred "coming soon" card for screens that are not built yet. */
export function PlaceholderScreen({ icon, title, body, actionLabel, actionTo = '/stories', testId }: PlaceholderScreenProps) {
  const navigate = useNavigate();
  return (
    <div className="tl-placeholder" data-testid={testId}>
      <Result
        icon={icon}
        title={title}
        subTitle={body}
        extra={
          <Button type="primary" onClick={() => navigate(actionTo)}>
            {actionLabel}
          </Button>
        }
      />
    </div>
  );
}
