// What an assistant reads before it writes (issue 53): the API's OpenAPI document, and the firm's vocabulary — its
// custom fields (the extra keys of a client) and its job statuses (the slugs a job's status takes).
import type { Caller } from "@/lib/auth/caller";
import { tenantCustomFields } from "@/lib/clients/custom-fields";
import { issuer } from "@/lib/oauth/settings";
import { openApiDocument } from "@/lib/openapi/document";
import { readsNested, type TokenAccess, type TokenResource } from "@/lib/tokens/access";

interface McpResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  /** The token resource whose read access the resource needs, as the matching endpoints do. */
  needs?: TokenResource;
  read: (caller: Caller) => Promise<unknown>;
}

export const RESOURCES: readonly McpResource[] = [
  {
    uri: "cjt://openapi.json",
    name: "openapi",
    title: "OpenAPI document",
    description: "The REST API every tool runs: its operations, parameters and answers (OpenAPI 3.1).",
    read: async () => openApiDocument(`${issuer()}/api/v1`),
  },
  {
    uri: "cjt://firm/custom-fields",
    name: "custom_fields",
    title: "Custom fields of the firm",
    description: "The firm's client custom fields: name, type and, for a select field, its options.",
    needs: "clients",
    read: async (caller) =>
      (await tenantCustomFields(caller.db)).map(({ name, type, options }) => ({
        name,
        type,
        ...(type === "select" ? { options } : {}),
      })),
  },
  {
    uri: "cjt://firm/job-statuses",
    name: "job_statuses",
    title: "Job statuses of the firm",
    description:
      "The firm's job statuses in their order: the slug a job's status takes, its name, whether it completes.",
    needs: "jobs",
    read: async (caller) =>
      (
        await caller.db.jobStatus.findMany({
          select: { slug: true, name: true, isCompleted: true },
          orderBy: [{ position: "asc" }, { id: "asc" }],
        })
      ).map(({ slug, name, isCompleted }) => ({ slug, name, is_completed: isCompleted })),
  },
];

const readable = (access: TokenAccess) => RESOURCES.filter(({ needs }) => !needs || readsNested(access, needs));

export const resourceList = (access: TokenAccess) =>
  readable(access).map(({ uri, name, title, description }) => ({
    uri,
    name,
    title,
    description,
    mimeType: "application/json",
  }));

/** A resource's contents, or undefined when there is none of that URI the caller may read. */
export async function readResource(uri: string, caller: Caller) {
  const resource = readable(caller.tokenAccess).find((candidate) => candidate.uri === uri);
  if (!resource) return undefined;
  return {
    contents: [{ uri, mimeType: "application/json", text: JSON.stringify(await resource.read(caller)) }],
  };
}
