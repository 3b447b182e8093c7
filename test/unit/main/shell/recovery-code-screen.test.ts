import { describe, expect, it } from 'vitest';
import { RECOVERY_CODE_ACTION, recoveryCodePage } from '@src/main/shell/recovery-code-screen';

describe('the recovery code screen’s page', () => {
  it('shows the host’s words as text, never as markup, and runs no script', () => {
    const page = recoveryCodePage({ message: 'Key <b>lost</b> & gone', error: '<img src=x onerror=alert(1)> "wrong"' });
    expect(page).toContain('Key &#60;b&#62;lost&#60;/b&#62; &#38; gone');
    expect(page).toContain('&#60;img src=x onerror=alert(1)&#62; &#34;wrong&#34;');
    expect(page).not.toMatch(/<script|<img/);
    expect(page).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(page).toContain(`action="${RECOVERY_CODE_ACTION}"`);
  });

  it('ties the refusal to the field, and the first question has none', () => {
    expect(recoveryCodePage({ message: 'm', error: null })).not.toMatch(/role="alert"|aria-invalid/);
    expect(recoveryCodePage({ message: 'm', error: 'That recovery code has a typo.' })).toMatch(/<p id="error" role="alert">That recovery code has a typo\.<\/p>[\s\S]*aria-describedby="error" aria-invalid="true"/);
  });
});
