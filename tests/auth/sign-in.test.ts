import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { authorizeSignIn, clientAddress, verifyCredentials } from "@/lib/auth/sign-in";
import { SIGN_IN_RATE_LIMITED } from "@/lib/auth/sign-in-errors";
import { prisma } from "@/lib/db/client";
import { DEMO_PASSWORD } from "@/lib/demo/seed";
import { userByEmail } from "../support/api";

describe("checking an email and password", () => {
  it("signs in the user whose password matches, with their tenant and user ids", async () => {
    const owner = await userByEmail("owner@acme.test");
    expect(await verifyCredentials(await prisma(), "owner@acme.test", DEMO_PASSWORD)).toEqual({
      tenantId: owner.tenantId,
      userId: owner.id,
      name: "Olivia Owner",
      email: "owner@acme.test",
    });
  });

  it("ignores the case of the email", async () => {
    expect(await verifyCredentials(await prisma(), "Owner@ACME.test", DEMO_PASSWORD)).toMatchObject({
      email: "owner@acme.test",
    });
  });

  it("refuses a wrong password, an unknown email and an archived user alike", async () => {
    const client = await prisma();
    expect(await verifyCredentials(client, "owner@acme.test", "not-the-password")).toBeNull();
    expect(await verifyCredentials(client, "nobody@acme.test", DEMO_PASSWORD)).toBeNull();
    expect(await verifyCredentials(client, "archived@acme.test", DEMO_PASSWORD)).toBeNull();
  });

  it("finds a person by email in whichever tenant the password matches", async () => {
    const client = await prisma();
    const acmeAdmin = await userByEmail("admin@acme.test");
    const birch = await userByEmail("owner@birch.test");
    const birchRole = await client.role.findFirstOrThrow({ where: { tenantId: birch.tenantId, name: "Standard" } });
    const birchAdmin = await client.user.create({
      data: {
        tenantId: birch.tenantId,
        roleId: birchRole.id,
        firstname: "Adam",
        lastname: "Elsewhere",
        email: "admin@acme.test",
        passwordHash: await bcrypt.hash("birch-password", 4),
      },
    });

    expect(await verifyCredentials(client, "admin@acme.test", DEMO_PASSWORD)).toMatchObject({
      tenantId: acmeAdmin.tenantId,
      userId: acmeAdmin.id,
    });
    expect(await verifyCredentials(client, "admin@acme.test", "birch-password")).toMatchObject({
      tenantId: birch.tenantId,
      userId: birchAdmin.id,
    });
    expect(await verifyCredentials(client, "admin@acme.test", "neither")).toBeNull();

    // When the password matches in both tenants, the older tenant's user is the one signed in.
    await client.user.updateMany({
      where: { tenantId: birch.tenantId, id: birchAdmin.id },
      data: { passwordHash: acmeAdmin.passwordHash },
    });
    expect(await verifyCredentials(client, "admin@acme.test", DEMO_PASSWORD)).toMatchObject({
      tenantId: acmeAdmin.tenantId,
    });
  });
});

describe("malformed sign-in input", () => {
  it("is refused like wrong credentials, never an error", async () => {
    for (const email of ["owner@acme.test\u0000", "owner\ud800@acme.test", "", 42, null]) {
      expect(
        await authorizeSignIn({ email, password: DEMO_PASSWORD }, { "x-forwarded-for": "203.0.113.77" }),
      ).toBeNull();
    }
  });
});

describe("sign-in rate limits", () => {
  it("refuses the 11th attempt for one email within 15 minutes, from any address, even with the right password", async () => {
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect(
        await authorizeSignIn(
          { email: "standard@acme.test", password: "wrong" },
          { "x-forwarded-for": `192.0.2.${attempt}` },
        ),
      ).toBeNull();
    }
    await expect(
      authorizeSignIn({ email: "STANDARD@acme.test", password: DEMO_PASSWORD }, { "x-forwarded-for": "192.0.2.11" }),
    ).rejects.toThrow(SIGN_IN_RATE_LIMITED);
  });

  it("refuses an address after 10 wrong attempts within 15 minutes, whatever the email", async () => {
    const address = { "x-forwarded-for": "203.0.113.7, 10.0.0.1" };
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect(await authorizeSignIn({ email: `guess${attempt}@acme.test`, password: "guess" }, address)).toBeNull();
    }
    await expect(authorizeSignIn({ email: "groups@acme.test", password: DEMO_PASSWORD }, address)).rejects.toThrow(
      SIGN_IN_RATE_LIMITED,
    );
    expect(
      await authorizeSignIn(
        { email: "groups@acme.test", password: DEMO_PASSWORD },
        { "x-forwarded-for": "203.0.113.8" },
      ),
    ).toMatchObject({
      email: "groups@acme.test",
    });
  });

  it("lets more than ten people sign in from one address: only wrong attempts count against it", async () => {
    const office = { "x-forwarded-for": "198.51.100.20" };
    const people = [
      "owner@acme.test",
      "admin@acme.test",
      "assigned@acme.test",
      "groups@acme.test",
      "viewer@acme.test",
      "owner@birch.test",
    ];
    for (let signIn = 0; signIn < 12; signIn++) {
      const email = people[signIn % people.length];
      expect(await authorizeSignIn({ email, password: DEMO_PASSWORD }, office)).toMatchObject({ email });
    }
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect(await authorizeSignIn({ email: `typo${attempt}@acme.test`, password: DEMO_PASSWORD }, office)).toBeNull();
    }
    await expect(authorizeSignIn({ email: "admin@acme.test", password: DEMO_PASSWORD }, office)).rejects.toThrow(
      SIGN_IN_RATE_LIMITED,
    );
  });

  it("refuses the 101st attempt from one address within 15 minutes, right or wrong", async () => {
    const client = await prisma();
    const acme = await userByEmail("owner@acme.test");
    const passwordHash = await bcrypt.hash("office-password", 4);
    const emails = Array.from({ length: 11 }, (_, i) => `office${i}-${Date.now().toString(36)}@acme.test`);
    await client.user.createMany({
      data: emails.map((email) => ({
        tenantId: acme.tenantId,
        roleId: acme.roleId,
        firstname: "Office",
        lastname: "Person",
        email,
        passwordHash,
      })),
    });
    const office = { "x-forwarded-for": "198.51.100.30" };
    for (let attempt = 0; attempt < 100; attempt++) {
      const email = emails[attempt % 10]; // ten each: within the per-email limit
      expect(await authorizeSignIn({ email, password: "office-password" }, office)).toMatchObject({ email });
    }
    await expect(authorizeSignIn({ email: emails[10], password: "office-password" }, office)).rejects.toThrow(
      SIGN_IN_RATE_LIMITED,
    );
    expect(
      await authorizeSignIn({ email: emails[10], password: "office-password" }, { "x-forwarded-for": "198.51.100.31" }),
    ).toMatchObject({
      email: emails[10],
    });
  });

  it("takes the client's address from the first X-Forwarded-For entry", () => {
    expect(clientAddress({ "x-forwarded-for": " 203.0.113.7 , 10.0.0.1" })).toBe("203.0.113.7");
    expect(clientAddress({})).toBeNull();
    expect(clientAddress(undefined)).toBeNull();
  });
});
