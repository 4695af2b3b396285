// The /settings/webhooks page's server actions: Owners and Admins manage their own firm's endpoints; a Standard
// user's (forged) request is refused, and another firm's endpoint cannot be named.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createWebhookAction,
  deleteWebhookAction,
  rotateSecretAction,
  sendTestAction,
  setEnabledAction,
} from "@/app/settings/webhooks/actions";
import type { SignedInUser } from "@/lib/auth/session";
import { prisma } from "@/lib/db/client";
import { webhookManager, webhooksPage } from "@/lib/webhooks/settings";
import { userByEmail } from "../support/api";
import { type Receiver, startReceiver } from "../support/webhook-receiver";

const session = vi.hoisted(() => ({ user: null as SignedInUser | null }));
vi.mock("@/lib/auth/session", () => ({
  requireSignedInUser: async () => {
    if (!session.user) throw new Error("not signed in");
    return session.user;
  },
}));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
/** What the actions left for after their answer (next/server's after), run by the tests when they choose. */
const afterAnswer: (() => Promise<void>)[] = [];
vi.mock("next/server", () => ({ after: (task: () => Promise<void>) => afterAnswer.push(task) }));

let receiver: Receiver;
beforeAll(async () => {
  vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE", "true");
  receiver = await startReceiver();
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await receiver.close();
});
beforeEach(() => {
  session.user = null;
});

async function signInAs(email: string) {
  const user = await userByEmail(email);
  session.user = { tenantId: user.tenantId, userId: user.id, name: user.firstname, email, timezone: user.timezone };
  return session.user;
}

function form(fields: Record<string, string | string[]>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields))
    for (const v of Array.isArray(value) ? value : [value]) data.append(name, v);
  return data;
}

async function created(email = "owner@acme.test") {
  await signInAs(email);
  const state = await createWebhookAction(
    { status: "idle" },
    form({ url: receiver.url, events: ["client.created", "job.created"], description: "" }),
  );
  if (state.status !== "created") throw new Error(JSON.stringify(state));
  return state;
}

describe("as an Owner or Admin", () => {
  it("adds an endpoint and answers its secret once; the page data never carries it", async () => {
    const state = await created("admin@acme.test");
    expect(state.secret).toMatch(/^whsec_/);
    const scope = (await webhookManager(session.user!))!;
    const page = await webhooksPage(scope);
    const row = page.find((w) => w.endpoint.uuid === state.uuid)!;
    expect(row.endpoint.events).toEqual(["client.created", "job.created"]);
  });

  it("answers field errors for a bad URL or no events, and adds nothing", async () => {
    await signInAs("owner@acme.test");
    const before = await (await prisma()).webhookEndpoint.count();
    const state = await createWebhookAction({ status: "idle" }, form({ url: "nope", description: "" }));
    // What was sent comes back, for the form to show again.
    expect(state).toMatchObject({ status: "invalid", values: { url: "nope", description: "", events: [] } });
    const kept = await createWebhookAction(
      { status: "idle" },
      form({ url: "ftp://x", description: "Billing", events: ["client.created", "job.updated"] }),
    );
    expect(kept).toMatchObject({
      status: "invalid",
      values: { url: "ftp://x", description: "Billing", events: ["client.created", "job.updated"] },
    });
    expect(Object.keys((state as { errors: object }).errors).sort()).toEqual(["events", "url"]);
    expect(await (await prisma()).webhookEndpoint.count()).toBe(before);
  });

  it("sends a test that is listed with its status code, disables, rotates and deletes", async () => {
    const { uuid, secret } = await created();
    const before = receiver.received.length;
    await sendTestAction(form({ uuid }));
    // Recorded at once, attempted once the page has its answer.
    expect(receiver.received.length).toBe(before);
    const scope = (await webhookManager(session.user!))!;
    const listedFirst = (await webhooksPage(scope)).find((w) => w.endpoint.uuid === uuid)!;
    expect(listedFirst.deliveries[0]).toMatchObject({ status: "pending", attempts: 0 });
    await Promise.all(afterAnswer.splice(0).map((task) => task()));
    expect(receiver.received.length).toBe(before + 1);
    const listed = (await webhooksPage(scope)).find((w) => w.endpoint.uuid === uuid)!;
    expect(listed.deliveries[0]).toMatchObject({ status: "succeeded", responseStatus: 200 });

    await setEnabledAction(form({ uuid, enabled: "false" }));
    expect((await (await prisma()).webhookEndpoint.findFirstOrThrow({ where: { uuid } })).enabled).toBe(false);
    const rotated = await rotateSecretAction({ status: "idle" }, form({ uuid }));
    expect(rotated).toMatchObject({ status: "rotated" });
    expect((rotated as { secret: string }).secret).not.toBe(secret);
    await deleteWebhookAction(form({ uuid }));
    expect(await (await prisma()).webhookEndpoint.count({ where: { uuid } })).toBe(0);
  });

  it("cannot name another firm's endpoint", async () => {
    const { uuid } = await created("owner@birch.test");
    await signInAs("owner@acme.test");
    await expect(deleteWebhookAction(form({ uuid }))).rejects.toThrow();
    expect(await (await prisma()).webhookEndpoint.count({ where: { uuid } })).toBe(1);
  });
});

describe("as a Standard user", () => {
  it("is refused by every action, and the page has no data for them", async () => {
    const { uuid } = await created();
    const user = await signInAs("standard@acme.test");
    expect(await webhookManager(user)).toBeNull();
    const refused = /does not allow managing webhooks/;
    await expect(
      createWebhookAction({ status: "idle" }, form({ url: receiver.url, events: ["client.created"] })),
    ).rejects.toThrow(refused);
    await expect(sendTestAction(form({ uuid }))).rejects.toThrow(refused);
    await expect(setEnabledAction(form({ uuid, enabled: "false" }))).rejects.toThrow(refused);
    await expect(rotateSecretAction({ status: "idle" }, form({ uuid }))).rejects.toThrow(refused);
    await expect(deleteWebhookAction(form({ uuid }))).rejects.toThrow(refused);
    expect(await (await prisma()).webhookEndpoint.findFirstOrThrow({ where: { uuid } })).toMatchObject({
      enabled: true,
    });
  });
});
