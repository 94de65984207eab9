import { describe, expect, it } from "vitest";

import { contentSecurityPolicy, escapeHtml, makeNonce, messageHtml, playHtml } from "../../src/preview";

const page = {
  scriptUri: "https://x.vscode-resource/ext/out/play/board.js",
  styleUri: "https://x.vscode-resource/ext/out/play/board.css",
  cspSource: "https://*.vscode-resource.vscode-cdn.net",
  nonce: "N0NCE",
  title: "Lights: Play",
};

describe("playHtml", () => {
  it("has a strict Content-Security-Policy: scripts by nonce only, styles and images from the extension", () => {
    const csp = contentSecurityPolicy("N0NCE", page.cspSource);
    expect(csp).toBe(
      "default-src 'none'; script-src 'nonce-N0NCE'; style-src https://*.vscode-resource.vscode-cdn.net 'nonce-N0NCE'; " +
        "img-src https://*.vscode-resource.vscode-cdn.net data:;",
    );
    expect(csp).not.toContain("unsafe");
    const html = playHtml(page);
    expect(html).toContain(`content="${csp}"`);
  });

  it("loads the board view as one module script with the nonce, and no inline script", () => {
    const html = playHtml(page);
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]![1]).toContain('type="module"');
    expect(scripts[0]![1]).toContain('nonce="N0NCE"');
    expect(scripts[0]![1]).toContain(`src="${page.scriptUri}"`);
    expect(scripts[0]![2]).toBe("");
    expect(html).toContain(`<link rel="stylesheet" nonce="N0NCE" href="${page.styleUri}">`);
    expect(html).toContain('<main id="app"></main>');
    expect(html).not.toMatch(/\son\w+=/);
  });

  it("escapes what it embeds", () => {
    const html = playHtml({ ...page, title: "<b>x</b>", scriptUri: 'a"b' });
    expect(html).toContain("&lt;b&gt;x&lt;/b&gt;");
    expect(html).toContain('src="a&quot;b"');
    expect(messageHtml("<t>", "<d>", "n")).toContain("&lt;d&gt;");
    expect(messageHtml("t", "d", "n")).not.toContain("<script");
    expect(escapeHtml(`&<>"'`)).toBe("&amp;&lt;&gt;&quot;&#39;");
  });

  it("makes 32-character alphanumeric nonces", () => {
    expect(makeNonce()).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(makeNonce(() => 0)).toBe("A".repeat(32));
    expect(makeNonce()).not.toBe(makeNonce());
  });
});
