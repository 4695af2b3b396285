// The server's log (lib/core/log.ts) in tests: its lines as objects, or a spy on one level.
import { Writable } from "node:stream";
import { vi } from "vitest";
import { log, logTo } from "@/lib/core/log";

export type LogLine = Record<string, unknown> & { level: string; message: string };

/** Collects every line the server logs until `restore` (call it in a finally or afterEach). */
export function captureLog() {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const text of String(chunk).split("\n").filter(Boolean)) {
        raw.push(text);
        lines.push(JSON.parse(text));
      }
      done();
    },
  });
  const restore = logTo(stream as unknown as Parameters<typeof logTo>[0], "info");
  return { lines, raw, restore };
}

/**
 * A silent spy on the log's `level`, called as `(message, error)` (or `(message)` when no error was logged), so that
 * a test asks what was logged in the words it was logged with. vi.restoreAllMocks() ends it.
 */
export function spyOnLog(level: "error" | "warn") {
  const calls = vi.fn();
  const logger = log();
  vi.spyOn(logger, level).mockImplementation(((fields: { error?: unknown } | string, message?: string) => {
    if (typeof fields === "string") return calls(fields);
    return fields.error === undefined ? calls(message) : calls(message, fields.error);
  }) as typeof logger.error);
  return calls;
}
