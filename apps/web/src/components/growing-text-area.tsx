import { Input } from 'antd';
import type { TextAreaProps, TextAreaRef } from 'antd/es/input/TextArea';
import type { CSSProperties, Ref } from 'react';

// Where the browser sizes a field to its content itself (CSS field-sizing: Chromium 123+, Safari 26.2+).
const BROWSER_SIZES = typeof CSS !== 'undefined' && typeof CSS.supports === 'function' && CSS.supports('field-sizing', 'content');

export interface GrowingTextAreaProps extends Omit<TextAreaProps, 'autoSize'> {
  minRows: number;
  maxRows: number;
  ref?: Ref<TextAreaRef>;
}

/**
 * A text area that grows with its text from minRows to maxRows lines, then scrolls. The browser sizes it
 * (CSS field-sizing, `.tl-grow` in global.css) where it can; elsewhere antd's autoSize measures it. Why:
 * autoSize reads the field's computed style as it first renders, a forced style and layout pass that was
 * the largest single cost of /play's first render on a phone (4x slower CPU: about 230 ms of 1 s).
 */
export function GrowingTextArea({ minRows, maxRows, ref, classNames, styles, ...rest }: GrowingTextAreaProps) {
  if (!BROWSER_SIZES) return <Input.TextArea ref={ref} autoSize={{ minRows, maxRows }} classNames={classNames} styles={styles} {...rest} />;
  const rows = { '--tl-grow-min': minRows, '--tl-grow-max': maxRows } as CSSProperties;
  const own = typeof classNames === 'object' ? classNames : undefined;
  const ownStyles = typeof styles === 'object' ? styles : undefined;
  return (
    <Input.TextArea
      ref={ref}
      rows={minRows}
      classNames={{ ...own, textarea: `tl-grow ${own?.textarea ?? ''}`.trim() }}
      styles={{ ...ownStyles, textarea: { ...ownStyles?.textarea, ...rows } }}
      {...rest}
    />
  );
}
