import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { Input, type InputProps } from 'antd';
import { useState } from 'react';

interface HoldToRevealPasswordProps extends Omit<InputProps, 'type' | 'suffix'> {
  /** Accessible name of the eye button, e.g. "Hold to show the password". */
  revealLabel: string;
}

/** A password input that shows its text only while the pointer is held down on the eye icon. */
export function HoldToRevealPassword({ revealLabel, ...inputProps }: HoldToRevealPasswordProps) {
  const [revealed, setRevealed] = useState(false);
  const hide = () => setRevealed(false);

  return (
    <Input
      {...inputProps}
      type={revealed ? 'text' : 'password'}
      autoComplete={inputProps.autoComplete ?? 'current-password'}
      suffix={
        <span
          role="button"
          tabIndex={-1}
          aria-label={revealLabel}
          aria-pressed={revealed}
          title={revealLabel}
          data-testid="password-reveal"
          className="tl-reveal"
          onPointerDown={(event) => {
            // Keep focus (and the caret) in the input while peeking.
            event.preventDefault();
            setRevealed(true);
          }}
          onPointerUp={hide}
          onPointerLeave={hide}
          onPointerCancel={hide}
          onContextMenu={(event) => event.preventDefault()}
        >
          {revealed ? <EyeOutlined aria-hidden="true" /> : <EyeInvisibleOutlined aria-hidden="true" />}
        </span>
      }
    />
  );
}
