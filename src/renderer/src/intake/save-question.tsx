import { useEffect, useRef, type ReactNode } from 'react';
import { Notice } from '../ui/notice';

/**
 * A question Save asks before it saves (fields still marked, a card naming someone else):
 * brought into view beside the Save button, its first answer focused.
 */
export function SaveQuestion({ id, title, children, actions }: { id: string; title: ReactNode; children?: ReactNode; actions: ReactNode }) {
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    section.current?.scrollIntoView({ block: 'center' });
    section.current?.querySelector<HTMLButtonElement>('button')?.focus({ preventScroll: true });
  }, [id]);
  return (
    <section ref={section} className="save-question" aria-labelledby={`${id}-title`} data-testid={id}>
      <Notice tone="warn" live>
        <strong id={`${id}-title`}>{title}</strong> {children}
      </Notice>
      <div className="row">{actions}</div>
    </section>
  );
}
