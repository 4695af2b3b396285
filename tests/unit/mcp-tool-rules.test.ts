// The MCP tools' rules that need no database (lib/mcp/tools.ts): which tools a caller is shown, by its token's access
// and its role's permissions, in the fixed order, and each tool's annotations. A call's own checks are the REST
// wrapper's (tests/api/check-order-rules.test.ts, tests/mcp). Part of the mutation run (docs/testing.md, Mutation testing).
import { describe, expect, it } from "vitest";
import { BUILT_IN_ROLES, type Permission } from "@/lib/auth/permissions";
import { findTool, TOOLS, toolDefinition, toolsFor } from "@/lib/mcp/tools";
import { FULL_ACCESS, NO_ACCESS, READ_ONLY, type TokenAccess } from "@/lib/tokens/access";

const caller = (tokenAccess: TokenAccess, permissions: readonly Permission[]) => ({
  tokenAccess,
  permissions: new Set(permissions),
});
const names = (access: TokenAccess, permissions: readonly Permission[]) =>
  toolsFor(caller(access, permissions)).map((tool) => tool.name);

const READS = [
  "list_clients",
  "search_clients",
  "get_client",
  "list_contacts",
  "get_contact",
  "list_jobs",
  "get_job",
  "get_me",
  "list_users",
  "get_user",
  "list_time_logs",
  "list_audit_events",
];

describe("the tools a caller is shown", () => {
  it("are every tool, in the document's order, for full access and every permission", () => {
    expect(names(FULL_ACCESS, BUILT_IN_ROLES.Owner)).toEqual(TOOLS.map((tool) => tool.name));
    expect(TOOLS.map((tool) => tool.name).sort()).toEqual(
      [
        ...READS,
        "create_client",
        "update_client",
        "create_contact",
        "update_contact",
        "create_job",
        "update_job",
      ].sort(),
    );
  });

  it("are the reads alone for a read-only token, whatever the role", () => {
    expect(names(READ_ONLY, BUILT_IN_ROLES.Owner).sort()).toEqual([...READS].sort());
  });

  it("are a resource's reads for a token with read access to it only, and get_me, which needs no access", () => {
    expect(names({ ...NO_ACCESS, jobs: "read" }, BUILT_IN_ROLES.Owner)).toEqual(["get_me", "list_jobs", "get_job"]);
    expect(names({ ...NO_ACCESS, jobs: "write" }, BUILT_IN_ROLES.Owner)).toEqual([
      "get_me",
      "list_jobs",
      "create_job",
      "get_job",
      "update_job",
    ]);
    expect(names(NO_ACCESS, BUILT_IN_ROLES.Owner)).toEqual(["get_me"]);
  });

  it("leave out what the role may not do, with full access: a writer without a permission, the audit log", () => {
    const standard = names(FULL_ACCESS, BUILT_IN_ROLES.Standard);
    expect(standard).not.toContain("list_audit_events");
    expect(standard).toContain("create_client");
    const viewer = names(FULL_ACCESS, []);
    expect(viewer.sort()).toEqual(READS.filter((name) => name !== "list_audit_events").sort());
    const updater = names(FULL_ACCESS, ["clients.update"]);
    expect(updater).toContain("update_client");
    expect(updater).not.toContain("create_client");
  });
});

describe("a tool's annotations", () => {
  const annotations = (name: string) => toolDefinition(findTool(name)!).annotations;

  it("say a read only reads, a create is not destructive, an update is destructive and idempotent; none reach out", () => {
    expect(annotations("list_clients")).toEqual({
      title: expect.any(String),
      readOnlyHint: true,
      openWorldHint: false,
    });
    expect(annotations("create_client")).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
    expect(annotations("update_job")).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it("are found by name, and no tool is found for a name no endpoint declares", () => {
    expect(findTool("get_me")?.endpoint.path).toBe("/me");
    expect(findTool("delete_client")).toBeUndefined();
  });
});
