// An integration as a firm's developer would write it against a client generated from the OpenAPI document
// (openapi-typescript + openapi-fetch). e2e/typed-client.spec.ts generates the types from the running app,
// compiles this file under `tsc --strict` and runs it against the app: a document change that breaks
// natural code breaks the build.
import createClient from "openapi-fetch";
import type { components, paths } from "../../.data/sdk/api";

type Client = components["schemas"]["Client"];
type ApiError = components["schemas"]["ApiError"];

export async function runIntegration(baseUrl: string, token: string) {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });
  const fail = (what: string, error: ApiError | undefined): never => {
    throw new Error(`${what}: ${error?.message}`);
  };

  const { data: me, error: meError } = await api.GET("/me");
  if (!me) return fail("GET /me", meError);
  const { data: user } = await api.GET("/users/{id}", { params: { path: { id: me.id } } });

  // Every client, page by page, with numbers and booleans as themselves.
  const paged: Client[] = [];
  let total = 0;
  for (let page = 1; ; page++) {
    const { data, error } = await api.GET("/clients", {
      params: { query: { page, limit: 20, include_archived: true } },
    });
    if (!data) return fail("GET /clients", error);
    paged.push(...data.data);
    if (!("total" in data.meta)) break;
    total = data.meta.total;
    if (page >= data.meta.last_page) break;
  }

  // The same with cursor pages, then only what changed since.
  const synced: Client[] = [];
  let cursor: string | null = "";
  while (cursor !== null) {
    const after: string = cursor;
    const { data, error } = await api.GET("/clients", {
      params: { query: { cursor: after, per_page: 20, include_archived: true, sort_by: "updated_at" } },
    });
    if (!data) return fail("GET /clients?cursor=", error);
    synced.push(...data.data);
    cursor = "next_cursor" in data.meta ? data.meta.next_cursor : null;
  }
  const since = synced.map((c) => c.updated_at).reduce((a, b) => (a > b ? a : b), "2000-01-01T00:00:00.000Z");

  // Create a client with its primary contact, then change it.
  const { data: created, error: createError } = await api.POST("/clients", {
    body: {
      name: `Typed Client ${Date.now()}`,
      client_status: "prospect",
      year_end: "03-31",
      contact: { firstname: "Tia", lastname: "Typed", email: `tia.${Date.now()}@typed.example` },
    },
  });
  if (!created) return fail("POST /clients", createError);
  const { data: updated, error: updateError } = await api.PUT("/clients/{uuid}", {
    params: { path: { uuid: created.uuid } },
    body: { client_status: "active", city: "Leeds" },
  });
  if (!updated) return fail("PUT /clients/{uuid}", updateError);
  const { data: contact } = await api.POST("/contacts", {
    body: { firstname: "Uma", lastname: "Typed", email: `uma.${Date.now()}@typed.example`, client_uuid: created.uuid },
  });

  const { data: changes, error: changesError } = await api.GET("/clients", {
    params: { query: { updated_since: since, include_archived: true, limit: 1000 } },
  });
  if (!changes) return fail("GET /clients?updated_since=", changesError);

  // Filters with the types they mean.
  const { data: jobs, error: jobsError } = await api.GET("/jobs", {
    params: {
      query: { "users[]": [me.id], include_completed: true, due_date_range: "2000-01-01,", sort_by: "due_date" },
    },
  });
  if (!jobs) return fail("GET /jobs", jobsError);
  const { data: thisYear } = await api.GET("/jobs", { params: { query: { due_date_range: "this_year", limit: 5 } } });
  const { data: timeLogs, error: timeLogsError } = await api.GET("/time-logs", {
    params: { query: { range: "2000-01-01,2100-12-31", limit: 10 } },
  });
  if (!timeLogs) return fail("GET /time-logs", timeLogsError);

  // A write retried with its Idempotency-Key is done once; the retry gets the first answer again.
  const key = `typed-job-${Date.now()}`;
  const newJob = { name: "Typed job", client_uuid: created.uuid, due_date: "2027-01-31", estimated_hours: 2.5 };
  const first = await api.POST("/jobs", { params: { header: { "Idempotency-Key": key } }, body: newJob });
  const retry = await api.POST("/jobs", { params: { header: { "Idempotency-Key": key } }, body: newJob });
  if (!first.data || !retry.data) return fail("POST /jobs", first.error ?? retry.error);
  const { data: job } = await api.PUT("/jobs/{uuid}", {
    params: { path: { uuid: first.data.uuid } },
    body: { estimated_hours: 3, user_id: me.id },
  });
  const { data: jobCursorPage } = await api.GET("/jobs", {
    params: { query: { cursor: "", per_page: 5, client_uuid: created.uuid } },
  });

  // A webhook endpoint: its secret comes once, then it is changed, its deliveries read, and it is deleted.
  const { data: hook, error: hookError } = await api.POST("/webhooks", {
    body: { url: "https://hooks.firm.example/cjt", events: ["client.created", "job.completed"] },
  });
  if (!hook) return fail("POST /webhooks", hookError);
  const { data: hookUpdated } = await api.PUT("/webhooks/{uuid}", {
    params: { path: { uuid: hook.uuid } },
    body: { events: ["job.completed"], enabled: false },
  });
  const { data: deliveries } = await api.GET("/webhooks/{uuid}/deliveries", {
    params: { path: { uuid: hook.uuid }, query: { limit: 10 } },
  });
  const deleted = await api.DELETE("/webhooks/{uuid}", { params: { path: { uuid: hook.uuid } } });

  // Errors are typed: a 404's message, a 422's fields.
  const missing = await api.GET("/clients/{uuid}", {
    params: { path: { uuid: "00000000-0000-4000-8000-000000000000" } },
  });
  const invalid = await api.POST("/clients", { body: { name: "" } });
  const fieldErrors = invalid.error && "errors" in invalid.error ? invalid.error.errors : {};

  return {
    me,
    user,
    total,
    paged: paged.map((c) => c.uuid),
    synced: synced.map((c) => c.uuid),
    created,
    updated,
    contact,
    since,
    changes: changes.data.map((c) => ({ uuid: c.uuid, updated_at: c.updated_at })),
    jobs: jobs.data,
    thisYear: thisYear?.data.length,
    timeLogs: timeLogs.data,
    idempotent: {
      sameJob: first.data.uuid === retry.data.uuid,
      replayed: retry.response.headers.get("Idempotent-Replayed"),
    },
    job,
    jobCursorPage: jobCursorPage && "next_cursor" in jobCursorPage.meta ? jobCursorPage.data.map((j) => j.uuid) : null,
    webhook: {
      secret: hook.secret,
      events: hookUpdated?.events,
      enabled: hookUpdated?.enabled,
      deliveries: deliveries?.data.length,
      deleted: deleted.response.status,
    },
    notFound: { status: missing.response.status, message: missing.error?.message },
    invalid: { status: invalid.response.status, fields: Object.keys(fieldErrors) },
  };
}

/** Code that must not compile: if the document loosened its types, these lines would stop being errors. */
export async function mistakesTheTypesCatch(baseUrl: string) {
  const api = createClient<paths>({ baseUrl });
  // @ts-expect-error a page is a number, not text
  await api.GET("/clients", { params: { query: { page: "-5" } } });
  // @ts-expect-error include_archived is a boolean
  await api.GET("/clients", { params: { query: { include_archived: "yes" } } });
  // @ts-expect-error a user id is an integer
  await api.GET("/users/{id}", { params: { path: { id: "3" } } });
  const { data } = await api.GET("/clients/{uuid}", { params: { path: { uuid: "x" } } });
  // @ts-expect-error a misspelt field of a client
  return data?.nmae;
}
