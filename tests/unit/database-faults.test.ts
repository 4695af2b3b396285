import { describe, expect, it } from "vitest";
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
});
