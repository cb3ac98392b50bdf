import { describe, expect, it } from "vitest";
import { idPattern, isId, newId } from "../../src/domain/ids.js";

describe("ids", () => {
  it("carry 64 random bits: the prefix and 16 upper-case hex digits", () => {
    expect(newId("case")).toMatch(/^CASE-[0-9A-F]{16}$/);
    expect(newId("thread")).toMatch(/^THREAD-[0-9A-F]{16}$/);
    expect(newId("message")).toMatch(/^MSG-[0-9A-F]{16}$/);
    expect(newId("approval")).toMatch(/^APR-[0-9A-F]{16}$/);
  });

  it("do not repeat across many draws", () => {
    const ids = new Set(Array.from({ length: 50_000 }, () => newId("message")));
    expect(ids.size).toBe(50_000);
  });

  it("are recognised in both the current and the older 8-digit form, and nothing else", () => {
    expect(isId("case", newId("case"))).toBe(true);
    expect(isId("case", "CASE-1A2B3C4D")).toBe(true);
    expect(isId("case", "CASE-1A2B3C4D5E")).toBe(false);
    expect(isId("case", "APR-1A2B3C4D5E6F7A8B")).toBe(false);
    expect(isId("approval", "APR-1a2b3c4d5e6f7a8b")).toBe(false);
  });

  it("are found inside text", () => {
    const id = newId("case");
    expect(new RegExp(idPattern("case")).exec(`why did ${id} fail?`)?.[0]).toBe(id);
  });
});
