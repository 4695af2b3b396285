// Finds the route module of each operation of the OpenAPI document, and real records to put in its path, so that
// sweeps over the document reach every endpoint without naming them.
import path from "node:path";
import { prisma } from "@/lib/db/client";
import { type Operation, operations } from "@/lib/openapi/operations";
import type { RouteModule } from "./api";

export { type Operation, operations };

/** `/clients/{uuid}` → the module of app/api/v1/clients/[uuid]/route.ts. */
export async function routeModule(template: string): Promise<RouteModule> {
  const dir = template.replace(/^\//, "").replace(/\{(\w+)\}/g, "[$1]");
  return importRoute(`${dir}/route.ts`);
}

/** Imports a route file by its path under app/api/v1 (computed at run time, so the bundler cannot list them). */
export function importRoute(file: string): Promise<RouteModule> {
  return import(/* @vite-ignore */ path.resolve("app/api/v1", file));
}

/** The request path of an operation with its parameters filled in. */
export function pathOf(op: Operation, params: Record<string, string>) {
  // A lone surrogate cannot travel in a URL: clients send U+FFFD in its place.
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name].toWellFormed()));
}

type Kind = "client" | "contact" | "job" | "user" | "webhook";

/** What a path's record is: the resource named by the segment before the parameter. */
export function recordKind(op: Operation): Kind | undefined {
  const segment = op.path.split("/").find((_, i, parts) => parts[i + 1]?.startsWith("{"));
  return (
    {
      clients: "client",
      contacts: "contact",
      jobs: "job",
      users: "user",
      email: "user",
      webhooks: "webhook",
    } as Record<string, Kind>
  )[segment ?? ""];
}

/** The path parameters that name one record of the tenant: a uuid, an integer id, or an email. */
export async function recordParams(
  op: Operation,
  tenantId: number,
  where: object = {},
): Promise<Record<string, string>> {
  const kind = recordKind(op);
  const names = Object.keys(op.params ?? {});
  if (!kind || names.length === 0) return {};
  const client = await prisma();
  const scope = { tenantId, ...where };
  const record =
    kind === "webhook"
      ? await webhookOf(scope)
      : kind === "client"
        ? await client.client.findFirstOrThrow({ where: scope, orderBy: { id: "asc" } })
        : kind === "contact"
          ? await client.contact.findFirstOrThrow({ where: scope, orderBy: { id: "asc" } })
          : kind === "job"
            ? await client.job.findFirstOrThrow({ where: scope, orderBy: { id: "asc" } })
            : await client.user.findFirstOrThrow({ where: scope, orderBy: { id: "asc" } });
  return Object.fromEntries(
    names.map((name) => [
      name,
      name === "email"
        ? (record as { email: string }).email
        : name === "id"
          ? String(record.id)
          : (record as { uuid: string }).uuid,
    ]),
  );
}

/**
 * A webhook endpoint of the tenant (the demo data has none): made when missing. Its target is refused at delivery
 * (a private address, without WEBHOOKS_ALLOW_PRIVATE), so that sending it a test never leaves the machine.
 */
export async function webhookOf(where: { tenantId: number }) {
  const client = await prisma();
  const found = await client.webhookEndpoint.findFirst({ where, orderBy: { id: "asc" } });
  return (
    found ??
    client.webhookEndpoint.create({
      data: {
        tenantId: where.tenantId,
        url: "https://127.0.0.1:9/sweep",
        events: ["client.created"],
        secret: "whsec_c3dlZXA=",
      },
    })
  );
}
