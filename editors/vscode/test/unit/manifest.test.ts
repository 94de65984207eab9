// package.json and language-configuration.json: what VS Code reads without
// running any code.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "..", "..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const config = JSON.parse(readFileSync(join(root, "language-configuration.json"), "utf8"));

describe("package.json", () => {
  it("contributes the lights language for *.lights, with its files present", () => {
    const [language] = manifest.contributes.languages;
    expect(language).toMatchObject({ id: "lights", extensions: [".lights"] });
    for (const f of [language.configuration, language.icon.light, language.icon.dark, manifest.icon, manifest.main.replace("out/extension.js", "src/extension.ts")]) {
      expect(existsSync(join(root, f)), f).toBe(true);
    }
    const [grammar] = manifest.contributes.grammars;
    const tm = JSON.parse(readFileSync(join(root, grammar.path), "utf8"));
    expect(grammar).toMatchObject({ language: "lights", scopeName: "source.lights" });
    expect(tm.scopeName).toBe(grammar.scopeName);
  });

  it("has a 128×128 PNG icon", () => {
    const png = readFileSync(join(root, manifest.icon));
    expect(png.subarray(1, 4).toString("ascii")).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([128, 128]);
  });

  it("names every command `Lights: …` and shows the editor ones only in .lights files", () => {
    for (const c of manifest.contributes.commands) expect(c.category).toBe("Lights");
    const titles = manifest.contributes.commands.map((c: { title: string }) => c.title);
    expect(titles).toEqual(expect.arrayContaining(["Insert Solution", "Check Workspace", "Play", "Preview Board"]));
    for (const m of manifest.contributes.menus.commandPalette) expect(m.when).toBe("editorLangId == lights");
  });

  it("puts Play in the editor's title bar and context menu", () => {
    for (const menu of ["editor/title", "editor/context"]) {
      expect(manifest.contributes.menus[menu]).toContainEqual(expect.objectContaining({ command: "lights.play", when: "editorLangId == lights" }));
    }
  });

  it("ships the board view of Play and keeps the committed bundle checked", () => {
    const ignore = readFileSync(join(root, ".vscodeignore"), "utf8").split("\n");
    expect(ignore).toEqual(expect.arrayContaining(["!out/play/board.js", "!out/play/board.css"]));
    expect(manifest.scripts.bundle).toContain("npm run copy:play");
    expect(manifest.scripts.test).toMatch(/^npm run check:play && /);
    for (const f of ["../play/dist/board.js", "../play/board.css", "../play/index.html"]) expect(existsSync(join(root, f)), f).toBe(true);
  });

  it("scopes lights.server.path to the machine (the Remote tab in a remote window), overridable by a workspace", () => {
    expect(manifest.contributes.configuration.properties["lights.server.path"].scope).toBe("machine-overridable");
  });

  it("keeps a workspace from choosing the binary in an untrusted folder", () => {
    expect(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations).toEqual(["lights.server.path"]);
  });

  it("uses @types/vscode no newer than the VS Code it asks for", () => {
    const engine = manifest.engines.vscode.replace(/^\^/, "");
    expect(manifest.devDependencies["@types/vscode"]).toBe(engine);
  });
});

describe("language-configuration.json", () => {
  const increase = new RegExp(config.indentationRules.increaseIndentPattern);
  const decrease = new RegExp(config.indentationRules.decreaseIndentPattern);
  const word = new RegExp(`^(?:${config.wordPattern})$`);

  it("comments with //, pairs braces and quotes", () => {
    expect(config.comments).toEqual({ lineComment: "//" });
    expect(config.brackets).toEqual([["{", "}"]]);
    expect(config.autoClosingPairs.map((p: { open: string; close: string }) => p.open + p.close)).toEqual(["{}", '""']);
  });

  it("indents after an opening brace, not after a closed grid or a brace in a name or comment", () => {
    for (const line of ['puzzle "a" {', "  lights {", "  lights { // first row below", 'puzzle "x{y" {']) {
      expect(increase.test(line), line).toBe(true);
    }
    for (const line of ["  lights { 1 . 1 }", 'puzzle "open {"', "  // a { in a comment", "  size 5x5"]) {
      expect(increase.test(line), line).toBe(false);
    }
    expect(decrease.test("  }")).toBe(true);
    expect(decrease.test("  } // end")).toBe(true);
    expect(decrease.test("  . 1 }")).toBe(false);
  });

  it("takes cross-cap and other names as one word", () => {
    for (const w of ["cross-cap", "topology", "all_on", "12"]) expect(word.test(w), w).toBe(true);
    expect(word.test("5x5")).toBe(false);
  });

  it("folds // region markers", () => {
    expect(new RegExp(config.folding.markers.start).test("  // region levels")).toBe(true);
    expect(new RegExp(config.folding.markers.end).test("// endregion")).toBe(true);
  });

  it("has a walkthrough whose pages are shipped and whose links run real commands", () => {
    const [walkthrough] = manifest.contributes.walkthroughs;
    expect(walkthrough.steps.map((s: { id: string }) => s.id)).toEqual(["openExample", "seeCounts", "insertSolution", "play"]);
    const ignore = readFileSync(join(root, ".vscodeignore"), "utf8").split("\n");
    expect(ignore).toEqual(expect.arrayContaining(["!media/first-puzzles.lights", "!media/walkthrough/*.md"]));
    const ours = new Set(manifest.contributes.commands.map((c: { command: string }) => c.command));
    // The code lens runs the server's command; VS Code's own commands are named as they are.
    const known = new Set([...ours, "lights.insertSolution", "workbench.actions.view.problems"]);
    for (const step of walkthrough.steps) {
      expect(existsSync(join(root, step.media.markdown)), step.media.markdown).toBe(true);
      expect(step.media.markdown).toMatch(/^media\/walkthrough\/[a-z]+\.md$/);
      for (const [, id] of step.description.matchAll(/\(command:([\w.]+)\)/g)) expect(known.has(id), id).toBe(true);
      for (const e of step.completionEvents) {
        if (e.startsWith("onCommand:")) expect(known.has(e.slice("onCommand:".length)), e).toBe(true);
      }
    }
    expect(ours.has("lights.openExample")).toBe(true);
  });
});
