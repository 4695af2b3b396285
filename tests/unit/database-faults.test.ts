import { describe, expect, it } from "vitest";
import { DatabaseDeadlineError } from "@/lib/db/deadline";
import { databaseFault } from "@/lib/db/faults";
import { Prisma } from "@/lib/generated/prisma/client";

// An interactive transaction that waited too long for a connection is a busy database (a 503), not a bug (a 500):
// 20 parallel creates through PgBouncer on a loaded machine answered 500 when Prisma gave up first.
describe("database faults", () => {
  it("takes a transaction that got no connection in time for a busy database", () => {
    const error = new Prisma.PrismaClientKnownRequestError(
      "Transaction API error: Unable to start a transaction in the given time.",
      { code: "P2028", clientVersion: Prisma.prismaVersion.client },
    );
    expect(databaseFault(error)).toBe("busy");
  });

  it("takes an error of the app's own for a bug", () => {
    expect(databaseFault(new TypeError("Cannot read properties of undefined"))).toBeUndefined();
    const uniqueViolation = new Prisma.PrismaClientKnownRequestError("Unique constraint failed", {
      code: "P2002",
      clientVersion: Prisma.prismaVersion.client,
    });
    expect(databaseFault(uniqueViolation)).toBeUndefined();
  });

  // SQLSTATE class 53, insufficient resources, as Prisma wraps what PostgreSQL or PGlite raised (the shape seen in
  // tests/faults/disk-full.test.ts): a 503, never a 500.
  it.each([
    ["53100", "disk-full"],
    ["53200", "out-of-resources"],
    ["53400", "out-of-resources"],
    ["53000", "out-of-resources"],
    ["53300", "busy"],
  ])("takes SQLSTATE %s for %s", (code, fault) => {
    const error = new Prisma.PrismaClientKnownRequestError("Database error", {
      code: "P2039",
      clientVersion: Prisma.prismaVersion.client,
      meta: { driverAdapterError: { name: "DriverAdapterError", cause: { originalCode: code, kind: "postgres" } } },
    });
    expect(databaseFault(error)).toBe(fault);
    // node-postgres unwrapped, as a raw session throws it.
    expect(databaseFault(Object.assign(new Error("could not extend file"), { code }))).toBe(fault);
  });

  it("takes a file system's ENOSPC for a full disk", () => {
    expect(databaseFault(Object.assign(new Error("no space left on device"), { code: "ENOSPC" }))).toBe("disk-full");
  });

  // lib/db/deadline.ts and the connection closed after a statement's answer did not come (lib/db/client.ts): a 503.
  it("takes the request's database deadline for a statement timeout, and a connection closed under it for a lost one", () => {
    expect(databaseFault(new DatabaseDeadlineError())).toBe("statement-timeout");
    expect(databaseFault(new Error("Client has encountered a connection error and is not queryable"))).toBe(
      "connection-lost",
    );
    expect(databaseFault(new Error("Client was closed and is not queryable"))).toBe("connection-lost");
  });
});
