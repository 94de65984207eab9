// "Lights: Play" (and "Preview Board", which opens it): the HTML of the
// webview. The board view is editors/play's bundle, copied into out/play/
// (scripts/copy-play.mjs): one ES module and one stylesheet, loaded from the
// extension. The Content-Security-Policy allows that script only by nonce,
// styles from the extension (and by nonce), images from the extension and
// data: URIs, and nothing else: no inline scripts, no network.

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** For a double-quoted attribute: quotes stay readable (a CSP is full of them). */
function escapeAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A fresh nonce for the script (and style) tags. */
export function makeNonce(random: () => number = Math.random): string {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let out = "";
  for (let i = 0; i < 32; i++) out += chars[Math.floor(random() * chars.length)];
  return out;
}

export function contentSecurityPolicy(nonce: string, cspSource: string): string {
  return (
    `default-src 'none'; script-src 'nonce-${nonce}'; style-src ${cspSource} 'nonce-${nonce}'; ` +
    `img-src ${cspSource} data:;`
  );
}

export interface PlayPage {
  /** webview.asWebviewUri of out/play/board.js and out/play/board.css. */
  scriptUri: string;
  styleUri: string;
  /** webview.cspSource */
  cspSource: string;
  nonce: string;
  title: string;
}

/** The Play webview: the board view's stylesheet and module; it builds the page in #app. */
export function playHtml(page: PlayPage): string {
  const n = escapeHtml(page.nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(contentSecurityPolicy(page.nonce, page.cspSource))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" nonce="${n}" href="${escapeHtml(page.styleUri)}">
<title>${escapeHtml(page.title)}</title>
</head>
<body>
<main id="app"></main>
<script type="module" nonce="${n}" src="${escapeHtml(page.scriptUri)}"></script>
</body>
</html>
`;
}

/** A page with a message instead of the board (the board view's files are missing). */
export function messageHtml(title: string, detail: string, nonce: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${escapeHtml(nonce)}';">
<style nonce="${escapeHtml(nonce)}">
  body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 1em; }
  pre { white-space: pre-wrap; }
</style>
<title>${escapeHtml(title)}</title>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<pre>${escapeHtml(detail)}</pre>
</body>
</html>
`;
}
