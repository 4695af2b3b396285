// Each webhook delivery is a span of its own (issue 40), with the tenant and the delivery as attributes, recorded by
// whatever tracer provider is registered (the OTLP one when OTEL_EXPORTER_OTLP_ENDPOINT is set; here one in memory).
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as clientsRoute from "@/app/api/v1/clients/route";
import * as webhooksRoute from "@/app/api/v1/webhooks/route";
import { prisma } from "@/lib/db/client";
import { deliverDue } from "@/lib/webhooks/dispatch";
import { call, tokenFor } from "../support/api";
import { type Receiver, startReceiver } from "../support/webhook-receiver";

const exporter = new InMemorySpanExporter();
let receiver: Receiver;

beforeAll(async () => {
  vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE", "true");
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  receiver = await startReceiver();
});
afterAll(async () => {
  trace.disable();
  vi.unstubAllEnvs();
  await receiver.close();
});

describe("a webhook delivery", () => {
  it("is a span with its tenant, delivery and attempt", async () => {
    const owner = await tokenFor("owner@acme.test");
    const hook = await call(webhooksRoute, "POST", "webhooks", {
      token: owner,
      body: { url: receiver.url, events: ["client.created"] },
    });
    expect(hook.status).toBe(201);
    await call(clientsRoute, "POST", "clients", { token: owner, body: { name: `Traced ${Date.now()}` } });
    expect(await deliverDue()).toMatchObject({ claimed: 1, succeeded: 1 });

    const endpoint = await (await prisma()).webhookEndpoint.findFirstOrThrow({ where: { uuid: hook.body.uuid } });
    const delivery = await (await prisma()).webhookDelivery.findFirstOrThrow({
      where: { tenantId: endpoint.tenantId, endpointId: endpoint.id },
    });
    const spans = exporter.getFinishedSpans().filter((s) => s.name === "webhook delivery");
    expect(spans).toHaveLength(1);
    expect(spans[0].attributes).toEqual({
      "cjt.tenant.id": endpoint.tenantId,
      "cjt.webhook.delivery.id": delivery.id,
      "cjt.webhook.attempt": 1,
    });
  });
});
