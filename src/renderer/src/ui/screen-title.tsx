import { useEffect, useRef, type ReactNode } from 'react';

/**
 * The screen's heading. It takes focus when the screen opens (unless the screen focuses a
 * field instead), so keyboard and screen-reader users start at the top of the new screen.
 */
export function ScreenTitle({ children, subtitle, focus = true }: { children: ReactNode; subtitle?: ReactNode; focus?: boolean }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <div>
      <h1 ref={ref} tabIndex={-1} className="screen__title">
        {children}
      </h1>
      {subtitle && <p className="screen__subtitle">{subtitle}</p>}
    </div>
  );
}
