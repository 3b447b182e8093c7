import type { ComponentPropsWithRef } from 'react';

export interface ButtonProps extends ComponentPropsWithRef<'button'> {
  variant?: 'primary' | 'secondary' | 'danger';
  size?: 'normal' | 'small';
}

/** The one button: 44 px tall (36 when small), a label in words, never an icon alone. */
export function Button({ variant = 'secondary', size = 'normal', className, type = 'button', ...props }: ButtonProps) {
  const classes = ['button', variant !== 'secondary' && `button--${variant}`, size === 'small' && 'button--small', className].filter(Boolean).join(' ');
  return <button type={type} className={classes} {...props} />;
}
