import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // The integration suite solves a house ruleset on a shared server: one file at a time.
    fileParallelism: false,
  },
});
