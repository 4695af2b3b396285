// The routing of a Build Output API v3 deployment (config.json's `routes`), as Vercel's edge applies it before a
// request reaches a static file or a function: the phases Next's output uses (none, filesystem, rewrite, resource,
// miss, hit, error), `src` regexes (case-insensitive unless `caseSensitive`), `dest` with `$1`/`$name` substitution,
// `headers` (and `important` ones), `status`, `continue`, `check`, `override`, `has`/`missing`, request-header
// `transforms`, and `middlewarePath` (the middleware function, its answer read as Vercel reads it: x-middleware-next,
// -rewrite, -override-headers, -request-*). The order of phases follows the Build Output API's documentation and the
// open implementation in Cloudflare's next-on-pages (routes-matcher.ts), which runs the same output outside Vercel.

export type Phase = "none" | "filesystem" | "rewrite" | "resource" | "miss" | "hit" | "error";

interface Condition {
  type: "header" | "cookie" | "query" | "host";
  key?: string;
  value?: string;
}

interface Transform {
  type: string;
  op: "append" | "set" | "delete";
  target: { key: string };
  args?: string | string[];
}

export interface SourceRoute {
  src: string;
  dest?: string;
  headers?: Record<string, string>;
  status?: number;
  continue?: boolean;
  check?: boolean;
  override?: boolean;
  important?: boolean;
  caseSensitive?: boolean;
  methods?: string[];
  has?: Condition[];
  missing?: Condition[];
  transforms?: Transform[];
  middlewarePath?: string;
}

export type Route = SourceRoute | { handle: Phase };

/** What a middleware function answered, as far as routing is concerned. */
export interface MiddlewareAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

export interface RoutingRequest {
  method: string;
  url: URL;
  /** The request's headers; middleware may replace them (x-middleware-override-headers) and transforms change them. */
  headers: Headers;
}

export interface Routed {
  /** The output path to serve (a static file or a function), or an absolute URL (a rewrite elsewhere). */
  path: string;
  status?: number;
  /** Response headers from routes and middleware, applied under the served answer's own. */
  headers: Headers;
  /** Response headers from `important` routes, applied over the served answer's. */
  important: Headers;
  /** Query parameters for the served path: the request's and those the routes added. */
  searchParams: URLSearchParams;
  /** A middleware's own answer (neither next nor rewrite): served as it is. */
  middlewareAnswer?: MiddlewareAnswer;
}

type Status = "skip" | "next" | "done" | "error";

const NEXT_PHASE: Partial<Record<Phase, Phase>> = { none: "filesystem", filesystem: "rewrite", rewrite: "resource" };

/** The routes of each phase; source routes before the first `handle` belong to "none". */
export function routesByPhase(routes: Route[]): Record<Phase, SourceRoute[]> {
  const phases: Record<Phase, SourceRoute[]> = {
    none: [],
    filesystem: [],
    rewrite: [],
    resource: [],
    miss: [],
    hit: [],
    error: [],
  };
  let phase: Phase = "none";
  for (const route of routes) {
    if ("handle" in route) phase = route.handle;
    else phases[phase].push(route);
  }
  return phases;
}

export class Router {
  private path: string;
  private status: number | undefined;
  private headers = new Headers();
  private important = new Headers();
  private searchParams: URLSearchParams;
  private middlewareAnswer: MiddlewareAnswer | undefined;
  private middlewareLocation: string | null = null;
  private invokedMiddleware: string[] = [];
  private phasesChecked = 0;

  constructor(
    private readonly phases: Record<Phase, SourceRoute[]>,
    private readonly exists: (path: string) => boolean,
    private readonly request: RoutingRequest,
    private readonly runMiddleware: (path: string, searchParams: URLSearchParams) => Promise<MiddlewareAnswer>,
  ) {
    this.path = request.url.pathname || "/";
    this.searchParams = new URLSearchParams(request.url.searchParams);
  }

  async route(): Promise<Routed> {
    let result = await this.run("none");
    if (result === "error" || (this.status !== undefined && this.status >= 400)) result = await this.run("error");
    return {
      path: this.path,
      status: this.status,
      headers: this.headers,
      important: this.important,
      searchParams: this.searchParams,
      middlewareAnswer: this.middlewareAnswer,
    };
  }

  private async run(phase: "none" | "error"): Promise<Status> {
    this.phasesChecked = 0;
    const result = await this.checkPhase(phase);
    if (this.headers.has("location") && (!this.status || this.status < 300 || this.status >= 400)) this.status = 307;
    return result;
  }

  private async checkPhase(phase: Phase): Promise<"done" | "error"> {
    if (this.phasesChecked++ >= 50) {
      this.status = 500;
      return "error";
    }
    this.invokedMiddleware = [];
    let keepGoing = true;
    for (const route of this.phases[phase]) {
      const result = await this.checkRoute(phase, route);
      if (result === "error") return "error";
      if (result === "done") {
        keepGoing = false;
        break;
      }
    }
    if (phase === "hit" || isUrl(this.path) || this.headers.has("location") || this.middlewareAnswer) return "done";
    const found = this.exists(this.path);
    if (phase === "miss" && !found) this.status = !this.status || this.status < 400 ? 404 : this.status;
    const next: Phase =
      found || phase === "miss" || phase === "error" ? "hit" : keepGoing ? (NEXT_PHASE[phase] ?? "miss") : "miss";
    return this.checkPhase(next);
  }

  private async checkRoute(phase: Phase, route: SourceRoute): Promise<Status> {
    const matched = this.match(route, phase === "error");
    if (!matched) return "skip";
    if (route.middlewarePath && this.invokedMiddleware.includes(route.middlewarePath)) return "skip";
    const { groups, dest } = matched;
    if (route.override) {
      this.status = undefined;
      this.headers = new Headers();
      this.important = new Headers();
    }
    if (route.middlewarePath) {
      const answer = await this.runMiddleware(route.middlewarePath, this.searchParams);
      this.invokedMiddleware.push(route.middlewarePath);
      if (answer.status === 500 && answer.body.length === 0) {
        this.status = 500;
        return "error";
      }
      this.readMiddlewareAnswer(answer);
      if (this.middlewareAnswer || this.middlewareLocation) return "done";
    }
    this.applyTransforms(route, groups);
    for (const [name, value] of Object.entries(route.headers ?? {})) {
      this.headers.set(name, substitute(value, groups));
      if (route.important) this.important.set(name, substitute(value, groups));
    }
    if (route.status) this.status = route.status;
    const before = this.path;
    if (dest) this.applyDest(substitute(dest, groups));
    if (route.check && !isUrl(this.path)) {
      if (before === this.path) {
        if (phase !== "miss") return this.checkPhase(NEXT_PHASE[phase] ?? "miss");
        this.status = 404;
      } else if (phase === "miss") {
        if (!this.exists(this.path)) return this.checkPhase("filesystem");
        if (this.status === 404) this.status = undefined;
      } else {
        return this.checkPhase("none");
      }
    }
    return route.continue ? "next" : "done";
  }

  /** The route's match on the current path (and method, conditions, and in the error phase its status). */
  private match(route: SourceRoute, matchStatus: boolean): { groups: Groups; dest?: string } | undefined {
    const found = anchored(route.src, route.caseSensitive ? "" : "i").exec(this.path);
    if (!found) return undefined;
    if (route.methods && !route.methods.some((m) => m.toUpperCase() === this.request.method.toUpperCase())) return;
    let dest = route.dest;
    for (const condition of route.has ?? []) {
      const met = this.condition(condition);
      if (!met) return undefined;
      // A condition's named groups may be used in the destination ($segmentPath).
      if (dest && met.groups) dest = substitute(dest, { numbered: [], named: met.groups }, true);
    }
    if ((route.missing ?? []).some((condition) => this.condition(condition))) return undefined;
    if (matchStatus && route.status !== this.status) return undefined;
    return { groups: { numbered: [...found], named: found.groups ?? {} }, dest };
  }

  private condition({ type, key = "", value }: Condition): { groups?: Record<string, string> } | undefined {
    let actual: string | null;
    if (type === "host") actual = this.request.url.hostname;
    else if (type === "header") actual = this.request.headers.get(key);
    else if (type === "query") actual = this.searchParams.get(key);
    else actual = cookie(this.request.headers.get("cookie"), key);
    if (actual === null) return undefined;
    if (value === undefined) return {};
    const found = new RegExp(value).exec(actual);
    return found ? { groups: found.groups } : undefined;
  }

  private readMiddlewareAnswer(answer: MiddlewareAnswer) {
    const headers = new Headers(answer.headers);
    const overridden = headers.get("x-middleware-override-headers");
    if (overridden) {
      for (const name of overridden.split(",").map((n) => n.trim())) {
        const value = headers.get(`x-middleware-request-${name}`);
        if (value === null) this.request.headers.delete(name);
        else this.request.headers.set(name, value);
        headers.delete(`x-middleware-request-${name}`);
      }
      headers.delete("x-middleware-override-headers");
    }
    const rewrite = headers.get("x-middleware-rewrite");
    if (rewrite) {
      const target = new URL(rewrite, this.request.url);
      this.path = target.origin === this.request.url.origin ? target.pathname : target.href;
      for (const [name, value] of target.searchParams) this.searchParams.set(name, value);
      headers.delete("x-middleware-rewrite");
    }
    if (headers.has("x-middleware-next")) headers.delete("x-middleware-next");
    else if (!rewrite && !headers.has("location")) this.middlewareAnswer = { ...answer, headers };
    for (const [name, value] of headers) {
      if (name === "set-cookie") this.headers.append(name, value);
      else this.headers.set(name, value);
    }
    this.middlewareLocation = headers.get("location");
    if (this.middlewareLocation) this.status = answer.status;
  }

  private applyTransforms(route: SourceRoute, groups: Groups) {
    for (const transform of route.transforms ?? []) {
      if (transform.type !== "request.headers") continue;
      const name = transform.target.key;
      const args = [transform.args ?? []].flat().map((arg) => substitute(arg, groups));
      if (transform.op === "delete") this.request.headers.delete(name);
      else if (transform.op === "set") this.request.headers.set(name, args.join(","));
      else for (const arg of args) this.request.headers.append(name, arg);
    }
  }

  private applyDest(dest: string) {
    if (isUrl(dest)) {
      this.path = dest;
      return;
    }
    const target = new URL(dest, this.request.url);
    for (const [name, value] of target.searchParams) {
      if (!this.searchParams.getAll(name).includes(value)) this.searchParams.set(name, value);
    }
    this.path = target.pathname;
  }
}

interface Groups {
  numbered: (string | undefined)[];
  named: Record<string, string | undefined>;
}

/** `$1` and `$name` in a destination or header value, from the route's match (`namedOnly`: those it names). */
function substitute(template: string, { numbered, named }: Groups, namedOnly = false): string {
  return template.replace(/\$([a-zA-Z0-9_]+)/g, (token, key: string) => {
    if (namedOnly) return key in named ? (named[key] ?? "") : token;
    return /^\d+$/.test(key) ? (numbered[Number(key)] ?? "") : (named[key] ?? "");
  });
}

/** A route's `src` matches the whole path: Vercel anchors it (@vercel/routing-utils' normalizeRoutes). */
function anchored(src: string, flags: string) {
  return new RegExp(`${src.startsWith("^") ? "" : "^"}${src}${src.endsWith("$") ? "" : "$"}`, flags);
}

const isUrl = (path: string) => /^https?:\/\//.test(path);

function cookie(header: string | null, name: string): string | null {
  for (const part of header?.split(";") ?? []) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return decodeURIComponent(value.join("="));
  }
  return null;
}
