import { useId } from 'react';

interface LogoProps {
  size?: number;
  className?: string;
}

/** The brand mark: warp and weft threads on an indigo-violet tile. Decorative: pair it with text. */
export function Logo({ size = 28, className }: LogoProps) {
  const gradientId = useId();
  return (
    <svg className={className} width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6366f1" />
          <stop offset="1" stopColor="#a855f7" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill={`url(#${gradientId})`} />
      <path d="M9 9.5h14M9 16h14M9 22.5h14" stroke="#fff" strokeOpacity=".45" strokeWidth="2" strokeLinecap="round" />
      <path d="M12 7c4 4.5 4 13.5 0 18M20 7c-4 4.5-4 13.5 0 18" stroke="#fff" strokeWidth="2.4" fill="none" strokeLinecap="round" />
    </svg>
  );
}
