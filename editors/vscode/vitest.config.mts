import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // src/extension.ts imports `vscode`, which only exists inside VS Code:
    // the tests get a stand-in that records what the extension does.
    alias: { vscode: fileURLToPath(new URL("./test/unit/fake/vscode.ts", import.meta.url)) },
  },
  test: {
    include: ["test/unit/**/*.test.ts"],
    // The integration tests start the real `lights` binary.
    testTimeout: 60_000,
  },
});
