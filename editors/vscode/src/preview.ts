// "Lights: Preview Board": the HTML of the webview. The SVG drawn by
// `lights render` is embedded as an `<img>` data URI, so nothing in it can
// run, and the page's Content-Security-Policy allows only data: images and
// the one style block (by nonce): no scripts, no fetches.

export type PreviewState =
  | { kind: "picture"; svg: string; puzzle: string; file: string; note?: string }
  | { kind: "message"; title: string; detail: string };

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** A fresh nonce for the style block. */
export function makeNonce(random: () => number = Math.random): string {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let out = "";
  for (let i = 0; i < 32; i++) out += chars[Math.floor(random() * chars.length)];
  return out;
}

export function svgDataUri(svg: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}`;
}

export function contentSecurityPolicy(nonce: string): string {
  return `default-src 'none'; img-src data:; style-src 'nonce-${nonce}';`;
}

export function previewHtml(state: PreviewState, nonce: string): string {
  const body =
    state.kind === "picture"
      ? `<h1>${escapeHtml(state.puzzle)}</h1>
<p class="file">${escapeHtml(state.file)}</p>
<img src="${svgDataUri(state.svg)}" alt="${escapeHtml(`The board of puzzle "${state.puzzle}"`)}">
${state.note ? `<p class="note">${escapeHtml(state.note)}</p>` : ""}`
      : `<h1>${escapeHtml(state.title)}</h1>
<pre>${escapeHtml(state.detail)}</pre>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style nonce="${nonce}">
  body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 1em; }
  h1 { font-size: 1.2em; margin-bottom: 0; }
  .file, .note { color: var(--vscode-descriptionForeground); }
  img { display: block; max-width: 100%; height: auto; margin: 1em 0; border-radius: 4px; }
  pre { white-space: pre-wrap; }
</style>
<title>Lights preview</title>
</head>
<body>
${body}
</body>
</html>
`;
}
