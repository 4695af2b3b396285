// SERVER_HEAP_GROWTH_PERCENT (lib/core/heap-growth.ts): a value that is not a whole percentage stops the server at
// start-up with a message that names the setting, rather than being passed to V8 or read as something else.
import { describe, expect, it } from "vitest";
import { setHeapGrowth } from "@/lib/core/heap-growth";

describe("SERVER_HEAP_GROWTH_PERCENT", () => {
  it.each(["", "0", "50", "100", "400"])("accepts %j", (value) => {
    expect(() => setHeapGrowth({ SERVER_HEAP_GROWTH_PERCENT: value })).not.toThrow();
  });

  it.each(["-1", "401", "12.5", "lots", "1e9"])("refuses %j, naming the setting", (value) => {
    expect(() => setHeapGrowth({ SERVER_HEAP_GROWTH_PERCENT: value })).toThrow(
      "SERVER_HEAP_GROWTH_PERCENT must be a whole number from 0 to 400.",
    );
  });
});
