import type { ReactNode } from 'react';

export function Notice({ tone, children, live }: { tone: 'bad' | 'warn' | 'info' | 'ok'; children: ReactNode; live?: boolean }) {
  return (
    <div className={`notice notice--${tone}`} role={live ? (tone === 'bad' ? 'alert' : 'status') : undefined}>
      {children}
    </div>
  );
}

export function Loading({ label }: { label: string }) {
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty__title">{title}</p>
      {children && <p>{children}</p>}
      {action}
    </div>
  );
}

export function Panel({ title, titleId, actions, children, className }: { title?: string; titleId?: string; actions?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={['panel', className].filter(Boolean).join(' ')} aria-labelledby={title ? titleId : undefined}>
      {(title || actions) && (
        <div className="panel__header">
          {title && <h2 id={titleId}>{title}</h2>}
          {actions && <div className="row">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  );
}
