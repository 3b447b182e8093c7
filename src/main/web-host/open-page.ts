import { createHash } from 'node:crypto';
import { CONTENT_SECURITY_POLICY } from '../shell/content-security-policy';

export { OPEN_PAGE_PATH } from '../../shared/bridge/web-paths';

const STYLE = [
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f6f8;color:#1b2430}',
  'main{max-width:36rem;margin:12vh auto;padding:2rem;background:#fff;border:1px solid #c9d1da;border-radius:8px}',
  'h1{font-size:1.4rem;margin:0 0 1rem}',
  'code{background:#eef1f4;padding:0 .25rem;border-radius:3px}',
].join('');

/**
 * One plain page instead of an empty desk and a string of 401s: the browser mode's address
 * carries its key after `#secret=`, which a bookmark, a typed address or a tab from an
 * earlier run does not have. Static text, no script, no data.
 */
export const OPEN_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Open Coverdesk from its address</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Open Coverdesk from the address it printed</h1>
<p>This address is missing its key, or the key is from an earlier run. Coverdesk in a browser only opens from the full address it prints when it starts, which ends in <code>#secret=</code> followed by a long key.</p>
<ol>
<li>Go to the window where Coverdesk was started (<code>npm run start:web</code>).</li>
<li>Copy the whole address it printed, including everything after <code>#</code>.</li>
<li>Paste it into this tab. If Coverdesk was restarted, use the new address: each run has a new key.</li>
</ol>
<p>Nothing was loaded or saved from this page.</p>
</main>
</body>
</html>
`;

/** The app's policy, with this page's one inline style allowed by its hash and nothing else. */
export const OPEN_PAGE_CSP = CONTENT_SECURITY_POLICY.replace(
  "style-src 'self'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
);
