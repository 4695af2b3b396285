// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): an app whose client_id is an https
// URL describes itself in the JSON document at that URL. Fetched through the webhooks' public-address guard
// (lib/webhooks/address.ts: the name is resolved and every address checked, and the connection goes to the address
// checked), without following redirects, bounded to 5 KB and 5 s; kept as long as its Cache-Control allows
// (http-cache-semantics), within a minute and a day. OAUTH_METADATA_ALLOW_PRIVATE=true lifts the address rule for
// development and tests (documents served on loopback over http).
import CachePolicy from "http-cache-semantics";
import { Agent, fetch } from "undici";
import { z } from "zod";
import { resolveTarget } from "@/lib/webhooks/address";
import {
  METADATA_DOCUMENT_MAX_BYTES,
  METADATA_DOCUMENT_MAX_CACHE_MS,
  METADATA_DOCUMENT_MIN_CACHE_MS,
  METADATA_DOCUMENT_TIMEOUT_MS,
} from "./settings";

export const allowPrivateMetadata = () => process.env.OAUTH_METADATA_ALLOW_PRIVATE === "true";

/** Whether a client_id is one of these URLs (https, or http with the private setting), not a registered id. */
export function isMetadataDocumentUrl(clientId: string): boolean {
  const url = URL.parse(clientId);
  if (!url || url.hash || url.username || url.password || url.pathname === "/") return false;
  return url.protocol === "https:" || (allowPrivateMetadata() && url.protocol === "http:");
}

export class MetadataDocumentError extends Error {}

const documentSchema = z.object({
  client_id: z.string(),
  client_name: z.string().trim().min(1).max(100).optional(),
  redirect_uris: z.array(z.string()).min(1).max(20),
  token_endpoint_auth_method: z.literal("none").optional(),
});

export interface MetadataDocument {
  name: string;
  redirectUris: string[];
  /** Until when it may be used without fetching it again. */
  staleAt: Date;
}

/** Fetches and checks the document of `clientId`; throws MetadataDocumentError saying what is wrong. */
export async function fetchMetadataDocument(clientId: string): Promise<MetadataDocument> {
  const target = await resolveTarget(clientId, { allowPrivate: allowPrivateMetadata() }).catch((error) => {
    throw new MetadataDocumentError(`The client_id URL cannot be fetched: ${(error as Error).message}`);
  });
  const dispatcher = new Agent({
    connect: {
      lookup: (_host, options, callback) => {
        if ((options as { all?: boolean }).all) callback(null, [{ address: target.address, family: target.family }]);
        else callback(null, target.address, target.family);
      },
    },
  });
  const requestHeaders = { accept: "application/json" };
  try {
    const response = await fetch(clientId, {
      headers: requestHeaders,
      redirect: "manual",
      dispatcher,
      signal: AbortSignal.timeout(METADATA_DOCUMENT_TIMEOUT_MS),
    });
    if (response.status !== 200)
      throw new MetadataDocumentError(`The client_id URL answered ${response.status}, not 200 with the document.`);
    const text = await boundedText(response.body);
    const parsed = documentSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new MetadataDocumentError("The client metadata document is not valid.");
    const document = parsed.data;
    if (document.client_id !== clientId)
      throw new MetadataDocumentError("The client metadata document's client_id is not its own URL.");
    const policy = new CachePolicy(
      { url: clientId, method: "GET", headers: requestHeaders },
      { status: response.status, headers: Object.fromEntries(response.headers) },
      { shared: true },
    );
    const keep = Math.min(
      Math.max(policy.timeToLive(), METADATA_DOCUMENT_MIN_CACHE_MS),
      METADATA_DOCUMENT_MAX_CACHE_MS,
    );
    return {
      name: document.client_name ?? new URL(clientId).host,
      redirectUris: document.redirect_uris,
      staleAt: new Date(Date.now() + keep),
    };
  } catch (error) {
    if (error instanceof MetadataDocumentError) throw error;
    if (error instanceof SyntaxError) throw new MetadataDocumentError("The client metadata document is not JSON.");
    throw new MetadataDocumentError(
      `The client metadata document could not be fetched within ${METADATA_DOCUMENT_TIMEOUT_MS / 1000} s.`,
    );
  } finally {
    dispatcher.close().catch(() => {});
  }
}

/** The body as text, refused past the size bound (read no further than that). */
async function boundedText(body: AsyncIterable<Uint8Array> | null): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body ?? []) {
    size += chunk.length;
    if (size > METADATA_DOCUMENT_MAX_BYTES)
      throw new MetadataDocumentError(
        `The client metadata document is larger than ${METADATA_DOCUMENT_MAX_BYTES} bytes.`,
      );
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
