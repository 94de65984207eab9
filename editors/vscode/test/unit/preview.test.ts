import { describe, expect, it } from "vitest";

import { contentSecurityPolicy, escapeHtml, makeNonce, previewHtml, svgDataUri } from "../../src/preview";

const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';

describe("previewHtml", () => {
  it("embeds the SVG only as an <img> data URI that decodes back to it", () => {
    const html = previewHtml({ kind: "picture", svg, puzzle: "a", file: "p.lights" }, "N0NCE");
    expect(html).not.toContain("<svg");
    expect(html).not.toContain("<script");
    const m = /<img src="data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)"/.exec(html);
    expect(m).not.toBeNull();
    expect(Buffer.from(m![1]!, "base64").toString("utf8")).toBe(svg);
    expect(svgDataUri("é")).toBe(`data:image/svg+xml;base64,${Buffer.from("é").toString("base64")}`);
  });

  it("has a strict Content-Security-Policy: data: images, the nonce's style, nothing else", () => {
    const html = previewHtml({ kind: "picture", svg, puzzle: "a", file: "p.lights" }, "N0NCE");
    expect(html).toContain(`content="${contentSecurityPolicy("N0NCE")}"`);
    expect(contentSecurityPolicy("N0NCE")).toBe("default-src 'none'; img-src data:; style-src 'nonce-N0NCE';");
    expect(html).toContain('<style nonce="N0NCE">');
  });

  it("escapes names, files, notes and messages", () => {
    const evil = '<img src=x onerror="alert(1)">';
    const picture = previewHtml({ kind: "picture", svg, puzzle: evil, file: evil, note: evil }, "n");
    const message = previewHtml({ kind: "message", title: evil, detail: evil }, "n");
    for (const html of [picture, message]) {
      expect(html).not.toContain("<img src=x");
      expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    }
    expect(escapeHtml(`&<>"'`)).toBe("&amp;&lt;&gt;&quot;&#39;");
  });

  it("makes 32-character alphanumeric nonces", () => {
    expect(makeNonce()).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(makeNonce(() => 0)).toBe("A".repeat(32));
    expect(makeNonce()).not.toBe(makeNonce());
  });
});
