import { describe, expect, it } from "vitest";
// @ts-expect-error: the generator is plain JavaScript, without declarations
import { staleFiles } from "../../scripts/generate.mjs";

describe("generated types", () => {
  it("src/schema.ts and src/apiVersion.ts match openapi/openapi.json", async () => {
    expect(await (staleFiles as () => Promise<string[]>)()).toEqual([]);
  });
});
