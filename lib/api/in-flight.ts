// The API requests (/api/v1) this instance is answering, admitted at the HTTP server before Next routes them
// (lib/http/before-next.ts, installed by instrumentation.ts). A request is counted only once its body has arrived
// (lib/http/body-arrival.ts) and leaves the count when its handler has ended its answer, or when a streamed answer
// waits for its reader (it waits for a place again to make the rest): a place is for work, never for waiting on a
// client's network (decisions.md, Capacity). An
// answer its reader has not taken API_ANSWER_DEADLINE_MS after admission is cut. At most API_MAX_IN_FLIGHT are handed
// to Next at once; the next ones wait for a place, and one that has waited API_MAX_QUEUE_MS (or is the oldest of the
// longest queue when more than MAX_WAITING wait) is answered 503 with Retry-After.
// Waiting requests queue per tenant (known at the door from the bearer token's hash, remembered after authentication;
// anything else waits in one anonymous queue, so a client cannot place itself in another firm's queue). While more than
// one tenant is active (a request in flight, waiting, or arrived within the last ACTIVE_MS; the anonymous queue only
// while in flight or waiting), each holds at most its fair share of the places (the limit divided among them, at least
// one), even if that leaves a place free: the free place is what another firm's next request finds at once, and its
// request then runs beside fewer of the busy firm's on the same CPUs. And while a known firm finds places at once (none
// of its requests wait), a tenant whose requests wait holds at most API_WAITING_SHARE of its share (an eighth): below
// one place that is a share of one place's time, after a burst of a second's worth (paceAfter). A place held by a busy
// firm's pages keeps a CPU of PostgreSQL's and much of the app's busy, so what is left of the CPUs is what the quiet
// firm's requests run on (bench/RESULTS.md, the noisy neighbour in 120 s phases: the quiet firm's p99 1.2-1.9x alone
// during every abuse with an eighth, against 2.5x and 2.1x during the busy firm's unread and 1,000-row pages with a
// quarter and 3-12x with half; the busy firm gets about half the answers a quarter gave it while the quiet one
// is active).
// When every active tenant waits, each has its whole share. A free place goes to the waiting tenant whose requests
// have held the least place time (its virtual time, as in fair queuing: a request holding its place 200 ms costs a
// hundred times one holding 2 ms), in turn among equals: a firm sending ten times its share waits behind its own
// requests, a firm alone may use every place, and a firm not served lately starts up to HEADROOM_MS behind the others,
// so it goes first. While more tenants are active than there are places, the last free place is kept for the known
// tenant with the least place time: a quiet firm among many busy ones finds it at once (issue 54: with 7 firms of 6
// loops of long pages on 4 places, turns per request answered a quiet firm's requests 28-44% of the time). Within a tenant's queue requests are
// served in order of arrival, unless the queue is standing (its oldest has waited a fifth of the limit): then newest
// first, so that what is answered is answered soon and the requests refused are the ones that would have waited
// longest (adaptive LIFO, as in Facebook's "Fail at scale"). A request whose connection closes leaves the count or the
// queue. A shutdown waits for the requests arriving, counted and waiting. Only a server admits: route handlers called
// without one (the in-process tests) are not limited.
// Measured at 4x the peak (bench/RESULTS.md, Overload): refusing at once let refused callers retry at once, and the
// server spent its time refusing (58-71% of the peak answered); a bounded wait keeps the database busy with admitted
// work. The default limit is 2 per CPU, at most the database pool's size: each admitted request needs a pooled
// connection, and past that they only share the CPUs with PostgreSQL's busy backends and slow the event loop's own
// accepting of new connections (2 CPUs, open loop at 1,056 requests/s: with 6 in flight the listen queue overflowed
// and answered requests waited 2.4-5.6 s for their SYN to be retried, with 4 it did not, p99 0.45-0.7 s). Because the
// limit is at most the pool's size, the fair shares of places are fair shares of the database's connections too.
import type { IncomingMessage, ServerResponse } from "node:http";
import { availableParallelism } from "node:os";
import { logRefusalOf } from "@/lib/core/log";
import { poolConfig } from "@/lib/db/client";
import { takesPlace } from "@/lib/http/api-path";
import { releaseReadAhead, whenBodyArrived } from "@/lib/http/body-arrival";
import { API_HEADERS } from "@/lib/http/security-headers";
import { errorBodyAtFrontDoor } from "@/lib/observability/request-id";
import { hashToken, tokenOfAuthorization } from "@/lib/tokens/format";
import { serviceUnavailable } from "./unavailable";

/** A request waiting for a place: handed to Next by `admit`. */
interface Waiting {
  response: ServerResponse;
  /** Who is refused if it waits too long, for the log (refuse). */
  who: Who;
  since: number;
  admit: () => void;
  /**
   * A streamed answer whose reader has taken what was written, waiting for a place to make the rest: served before
   * its tenant's new requests, never answered 503 (its head is sent; only the answer's deadline cuts it).
   */
  resuming?: boolean;
}

/** The queue of requests whose tenant is not known at the door (no token, or one not yet seen authenticated). */
const ANONYMOUS = "anonymous";

// On globalThis: the built server may load this module more than once (each bundle its own copy), and both the front
// door and the shutdown must see the one count and the one queue.
interface InFlight {
  count: number;
  /** Requests whose bodies are still arriving (not yet counted nor waiting). */
  arriving: number;
  /** Requests in flight per tenant key. */
  holding: Map<string, number>;
  /** Waiting requests per tenant key, oldest first; a key's position is its turn among equals. */
  queues: Map<string, Waiting[]>;
  waitingCount: number;
  /** The timer that refuses the oldest waiting request when its wait runs out. */
  deadline?: NodeJS.Timeout;
  onIdle: Set<() => void>;
  /** Bearer token hash → tenant id, filled by authentication (rememberTokenTenant). */
  tenantOfToken: Map<string, number>;
  /** The active tenant keys and when each was last seen, least recently first (see activeTenants). */
  lastSeen: Map<string, number>;
  /** The timer that admits waiting requests once a tenant's activity has lapsed and shares have grown. */
  shareTimer?: NodeJS.Timeout;
  /** Place time (ms) each tenant held below one place may still use, as counted at `at` (see paceAfter). */
  credit: Map<string, { ms: number; at: number }>;
  /**
   * Each active tenant's virtual time: the place time (ms) its finished requests held, never more than HEADROOM_MS
   * behind the others' (see placeTime). The lowest is served first.
   */
  virtual: Map<string, number>;
  /** The sum of the admission times of each tenant's requests in flight: their place time so far, with `holding`. */
  takenAtSum: Map<string, number>;
}
const state: InFlight = ((globalThis as { __cjtInFlight?: InFlight }).__cjtInFlight ??= {
  count: 0,
  arriving: 0,
  holding: new Map<string, number>(),
  queues: new Map<string, Waiting[]>(),
  waitingCount: 0,
  onIdle: new Set(),
  tenantOfToken: new Map<string, number>(),
  lastSeen: new Map<string, number>(),
  credit: new Map<string, { ms: number; at: number }>(),
  virtual: new Map<string, number>(),
  takenAtSum: new Map<string, number>(),
});

/** API_MAX_IN_FLIGHT, else 2 per CPU and at most the size of the database pool; 0 for no limit. */
export function inFlightLimit(): number {
  const setting = process.env.API_MAX_IN_FLIGHT;
  if (setting) return Number(setting);
  const pool = Number(poolConfig(process.env.DATABASE_URL || "postgresql://localhost").max);
  return Math.min(pool, 2 * availableParallelism());
}

/** API_MAX_QUEUE_MS: how long a request past the limit may wait for a place (0: refused at once). */
export function queueWaitLimitMs(): number {
  return Number(process.env.API_MAX_QUEUE_MS || 500);
}

/** API_ANSWER_DEADLINE_MS: how long after admission an answer may take to be written and read (default 30 s). */
export function answerDeadlineMs(): number {
  return Number(process.env.API_ANSWER_DEADLINE_MS || 30_000);
}

const DEFAULT_WAITING_SHARE = 0.125;

/**
 * API_WAITING_SHARE: the part of its fair share a tenant whose requests wait may hold while another firm's requests
 * find places at once (default an eighth, at most 1). On this project's 2-CPU bench host a place held by a busy firm's
 * pages kept PostgreSQL's CPU and the app's busy together, so the quiet firm's requests ran on a full machine
 * (bench/RESULTS.md, fifth and eighth rounds); a host whose database has CPUs of its own may give more.
 */
function waitingShareOfFair(): number {
  const setting = Number(process.env.API_WAITING_SHARE || DEFAULT_WAITING_SHARE);
  return setting > 0 && setting <= 1 ? setting : DEFAULT_WAITING_SHARE;
}

/**
 * API_READER_GRACE_MS: how long a streamed answer keeps its place while its reader has not yet taken what was written
 * (default 100 ms). A reader on a fast network takes it within the grace, so the page's statements read ahead meanwhile
 * run inside the place; a slower one frees it for others, and the answer waits for one again to go on.
 */
export function readerGraceMs(): number {
  return Number(process.env.API_READER_GRACE_MS || 100);
}

/**
 * A tenant that sent a request within this long is active, and counts in the division of places into fair shares:
 * a firm sending an ordinary trickle (a request every tens of milliseconds) finds a place free at each, rather than
 * every place taken by a busier firm the moment it arrives.
 */
const ACTIVE_MS = 1_000;
/** At most this many requests wait; past it, the oldest of the longest queue is refused. */
const MAX_WAITING = 1024;
/** A queue whose oldest request has waited this share of API_MAX_QUEUE_MS is standing (see admitWaiting). */
const STANDING_SHARE = 0.2;
/**
 * How far behind the busiest active tenants' place time a firm not served lately starts (or is kept): its next
 * requests go before theirs, for up to a second of place time, but it banks no more than that while it is quiet.
 */
const HEADROOM_MS = 1_000;
/** Tokens remembered at the door; past it the oldest is forgotten (its requests wait anonymously until seen again). */
const MAX_REMEMBERED_TOKENS = 10_000;

const overloaded = serviceUnavailable("overloaded");
const OVERLOADED_HEADERS = { ...API_HEADERS, ...overloaded.headers, "Content-Type": "application/json" };

/** Whom the door refuses, as far as it knows: the firm of a token seen authenticated, else the token's hash prefix. */
interface Who {
  tenant_id: number | null;
  token_hash_prefix: string | null;
}

const UNNAMED: Who = { tenant_id: null, token_hash_prefix: null };

const REFUSAL_REASONS = {
  "queue-wait": "Answering 503: an API request waited API_MAX_QUEUE_MS for one of API_MAX_IN_FLIGHT places.",
  "queue-full": "Answering 503: more than 1,024 API requests waited; the oldest of the longest queue was refused.",
  "no-wait": "Answering 503: every one of API_MAX_IN_FLIGHT places was taken, and API_MAX_QUEUE_MS is 0.",
};

/**
 * Answers 503 to a request waiting for a place, and logs whom and why (a line per firm or token, then a count every
 * 30 s: logRefusalOf); a resuming answer, whose head is sent, is cut instead.
 */
function refuse(response: ServerResponse, who: Who, reason: keyof typeof REFUSAL_REASONS, resuming = false) {
  if (resuming) return response.destroy();
  logRefusalOf("overloaded", REFUSAL_REASONS[reason], { ...who, reason, status: 503 });
  if (response.destroyed) return;
  const body = errorBodyAtFrontDoor(response, overloaded.message);
  response.writeHead(503, { ...OVERLOADED_HEADERS, "Content-Length": String(Buffer.byteLength(body)) }).end(body);
}

/** A request still worth answering: its caller has not gone away. */
const waiting = (entry: Waiting) => !entry.response.destroyed && !entry.response.writableEnded;

/** The bearer token's hash, read and computed as authentication does (lib/tokens/format.ts), or undefined. */
function bearerHash(request: IncomingMessage): string | undefined {
  const token = tokenOfAuthorization(request.headers.authorization);
  return token ? hashToken(token) : undefined;
}

/**
 * Remembers the tenant of an authenticated token, for the door to queue that token's next requests with its tenant's.
 * Only a token that authenticated is remembered: a client cannot name a tenant it holds no token of.
 */
export function rememberTokenTenant(tokenHash: string, tenantId: number) {
  if (state.tenantOfToken.get(tokenHash) === tenantId) return;
  state.tenantOfToken.set(tokenHash, tenantId);
  if (state.tenantOfToken.size > MAX_REMEMBERED_TOKENS) {
    state.tenantOfToken.delete(state.tenantOfToken.keys().next().value!);
  }
}

function whoOf(request: IncomingMessage, key: string): Who {
  const hash = bearerHash(request);
  return {
    tenant_id: key === ANONYMOUS ? null : Number(key.slice("tenant:".length)),
    token_hash_prefix: hash === undefined ? null : hash.slice(0, 12),
  };
}

/** The queue a request waits in: its token's tenant once authenticated, else the anonymous one. */
function queueKey(request: IncomingMessage): string {
  const hash = bearerHash(request);
  const tenant = hash === undefined ? undefined : state.tenantOfToken.get(hash);
  return tenant === undefined ? ANONYMOUS : `tenant:${tenant}`;
}

/**
 * The front door (lib/http/before-next.ts): an API request's body is read first; then the request goes to Next
 * (`pass`) at once while fewer than the limit are in flight, else waits its turn; past its wait, or when the queue is
 * standing, it is answered 503 here.
 */
export function admitOrQueue(request: IncomingMessage, response: ServerResponse, pass: () => void) {
  if (!takesPlace(request.url ?? "/")) return pass();
  // Counted apart while its body arrives: a shutdown waits for it too (bounded by the body's deadline).
  state.arriving++;
  let arriving = true;
  const arrived = () => {
    if (!arriving) return;
    arriving = false;
    state.arriving--;
    notifyIfIdle();
  };
  response.once("close", arrived);
  // The body read ahead leaves the door's budget once Next has the request (its token is looked at then).
  const handOn = () => {
    releaseReadAhead(request);
    pass();
  };
  whenBodyArrived(request, response, () => {
    admitArrived(request, response, handOn);
    arrived();
  });
}

function admitArrived(request: IncomingMessage, response: ServerResponse, pass: () => void) {
  if (response.destroyed) return;
  const key = queueKey(request);
  const limit = inFlightLimit();
  if (limit <= 0) return enter(key, response, pass);
  seen(key);
  catchUp(key);
  dropDeparted();
  if (mayEnterNow(key, limit)) return enter(key, response, pass);
  const who = whoOf(request, key);
  if (queueWaitLimitMs() <= 0) return refuse(response, who, "no-wait");
  wait(key, { response, who, since: performance.now(), admit: () => enter(key, response, pass) });
}

/**
 * Notes `key` as active now (least recently seen first: lapsed tenants are at the front). Not the anonymous queue: a
 * new token's first request, or a stranger's, would otherwise count as a second firm for ACTIVE_MS and halve the share
 * of a firm alone (a request a second without a token would keep it halved); it counts while it holds or waits.
 */
function seen(key: string, now = performance.now()) {
  if (key === ANONYMOUS) return;
  state.lastSeen.delete(key);
  state.lastSeen.set(key, now);
}

/**
 * How many tenants are active: a request in flight or waiting, or one arrived within ACTIVE_MS (the anonymous queue
 * only while it holds or waits). Lapsed ones are forgotten; one still holding or waiting is kept (seen again now).
 */
function activeTenants(now = performance.now()): number {
  for (const [key, at] of state.lastSeen) {
    if (now - at < ACTIVE_MS) break;
    if (state.holding.has(key) || state.queues.has(key)) seen(key, now);
    else {
      state.lastSeen.delete(key);
      state.virtual.delete(key);
    }
  }
  const anonymous = state.holding.has(ANONYMOUS) || state.queues.has(ANONYMOUS);
  if (!anonymous) state.virtual.delete(ANONYMOUS);
  return state.lastSeen.size + (anonymous ? 1 : 0);
}

/** The places a tenant may hold at once: all of them alone, else the limit divided among the active tenants. */
const fairShare = (limit: number) => Math.max(1, Math.floor(limit / Math.max(1, activeTenants())));

/**
 * The share of a tenant whose requests wait: API_WAITING_SHARE of its fair share while a known active tenant has none
 * waiting (the headroom that tenant's requests find), else the whole share. Not for the anonymous queue's sake: a new
 * token's first requests are anonymous at the door, and would cut their own firm's share. Below one place it is a
 * share of one place's time (paceAfter).
 */
function waitingShare(limit: number) {
  const share = fairShare(limit); // lapsed tenants are forgotten first: lastSeen holds the active known ones
  const someQuiet = [...state.lastSeen.keys()].some((key) => !state.queues.has(key));
  return someQuiet ? share * waitingShareOfFair() : share;
}

/** The place time a tenant may use at once before a share below one place paces it: an ordinary burst is not paced. */
const BURST_MS = 1_000;

/** `key`'s credit of place time now: it grows by `share` ms a ms, up to BURST_MS (full when never spent). */
function creditNow(key: string, share: number, now: number) {
  const credit = state.credit.get(key);
  return credit ? Math.min(BURST_MS, credit.ms + (now - credit.at) * Math.min(1, share)) : BURST_MS;
}

/**
 * Spends the place time a waiting tenant under a share of less than one place has just used: once its credit is spent,
 * it takes no place until the credit has grown back above nothing, so a share of half a place keeps its place busy
 * half the time (a token bucket of place time, filled at the share's rate).
 */
function paceAfter(key: string, heldMs: number, now: number) {
  const limit = inFlightLimit();
  if (limit <= 0 || !state.queues.has(key)) return;
  const share = waitingShare(limit);
  if (share < 1) state.credit.set(key, { ms: creditNow(key, share, now) - heldMs, at: now });
}

/** Whether `key` has spent its place time while its share is below one place. */
const resting = (key: string, share: number, now: number) => share < 1 && creditNow(key, share, now) <= 0;

/** Whether `key` holds fewer places than its share (at least one). */
const underShare = (key: string, share: number) => (state.holding.get(key) ?? 0) < Math.max(1, Math.floor(share));

/**
 * `key`'s virtual time now: the place time its finished requests held, plus what those in flight have held so far
 * (fair queuing by place time: a request that holds its place 200 ms costs its firm a hundred of one that holds 2 ms).
 */
function placeTime(key: string, now = performance.now()): number {
  const held = state.holding.get(key) ?? 0;
  return (state.virtual.get(key) ?? 0) + held * now - (state.takenAtSum.get(key) ?? 0);
}

/** The lowest virtual time among the active tenants other than `key`, or undefined when there is none. */
function lowestOthers(key: string, now: number): number | undefined {
  let lowest: number | undefined;
  for (const other of state.virtual.keys())
    if (other !== key) lowest = Math.min(lowest ?? Number.POSITIVE_INFINITY, placeTime(other, now));
  return lowest;
}

/**
 * Keeps `key`'s virtual time at most HEADROOM_MS behind the lowest of the other active tenants': a firm not served
 * lately (or new) starts there and goes first, yet a firm quiet for long banks no more than that. Requests of no known
 * firm start level with the others, never ahead (a stranger gets no headroom).
 */
function catchUp(key: string, now = performance.now()) {
  const lowest = lowestOthers(key, now) ?? 0;
  const floor = key === ANONYMOUS ? lowest : lowest - HEADROOM_MS;
  const own = state.virtual.get(key);
  if (own === undefined || placeTime(key, now) < floor)
    state.virtual.set(key, (own ?? 0) + floor - placeTime(key, now));
}

/** The known active tenant with the lowest virtual time: the one the last free place is kept for (mayTakeLast). */
function lowestKnown(now: number): string | undefined {
  let lowest: string | undefined;
  for (const key of state.lastSeen.keys())
    if (lowest === undefined || placeTime(key, now) < placeTime(lowest, now)) lowest = key;
  return lowest;
}

/**
 * Whether `key` may take a place now as far as the headroom goes: while more tenants are active than there are
 * places (each then holds at most one), the last free place is kept for the known tenant with the lowest virtual
 * time (a firm not served lately, or a quiet firm's light requests), so that its next request finds it at once
 * rather than waiting for one of the busy firms' to end.
 */
function mayTakeLast(key: string, limit: number) {
  if (state.count < limit - 1 || activeTenants() <= limit) return true;
  const lowest = lowestKnown(performance.now());
  return lowest === undefined || lowest === key;
}

/** A request of `key` may take a place at once: one is free, its tenant is under its share and none of its own wait. */
const mayEnterNow = (key: string, limit: number) =>
  state.count < limit && !state.queues.has(key) && underShare(key, fairShare(limit)) && mayTakeLast(key, limit);

function wait(key: string, entry: Waiting) {
  const queue = state.queues.get(key) ?? [];
  state.queues.set(key, queue);
  queue.push(entry);
  state.waitingCount++;
  if (state.waitingCount > MAX_WAITING) {
    const oldest = takeOldestOfLongestQueue();
    refuse(oldest.response, oldest.who, "queue-full", oldest.resuming);
  }
  admitWaiting();
}

/**
 * Counts the request in, for its tenant, until its handler has ended the answer or its connection closes, and hands
 * it to Next. Past API_ANSWER_DEADLINE_MS the connection is cut: a reader that does not take its answer frees the
 * memory and whatever the answer still holds (a stream's connection).
 */
function enter(key: string, response: ServerResponse, pass: () => void) {
  let counted = false;
  let takenAt = 0;
  const take = () => {
    counted = true;
    takenAt = performance.now();
    state.count++;
    state.holding.set(key, (state.holding.get(key) ?? 0) + 1);
    state.takenAtSum.set(key, (state.takenAtSum.get(key) ?? 0) + takenAt);
  };
  take();
  const cut = setTimeout(() => response.destroy(), answerDeadlineMs());
  cut.unref();
  const leave = () => {
    if (!counted) return;
    counted = false;
    const now = performance.now();
    // The place time held is charged to the tenant's virtual time (kept while it is active).
    if (state.virtual.has(key)) state.virtual.set(key, state.virtual.get(key)! + now - takenAt);
    state.count--;
    const held = state.holding.get(key)! - 1;
    if (held === 0) {
      state.holding.delete(key);
      state.takenAtSum.delete(key);
    } else {
      state.holding.set(key, held);
      state.takenAtSum.set(key, state.takenAtSum.get(key)! - takenAt);
    }
    paceAfter(key, now - takenAt, now);
    admitWaiting();
  };
  // The place is free once the answer is ended: what is left is the network's (the socket's buffers), bounded by `cut`.
  const end = response.end;
  response.end = function (this: ServerResponse, ...args: Parameters<typeof end>) {
    const result = end.apply(this, args);
    // Not from within end(): the request admitted next may end its own answer at once, and so on, a stack deep.
    queueMicrotask(leave);
    return result;
  } as typeof end;
  // Likewise once a streamed answer (a long page) has waited API_READER_GRACE_MS for its reader to take what was
  // written: its statements run only as the reader drains it, so it holds nothing a place stands for while it waits.
  // Once the reader has taken it ('drain', which Next waits for before making more), the rest is work again: it waits
  // for a place, its tenant's turn first, so that streams drained by many readers do not run their statements beside
  // every place.
  let waitingForReader: NodeJS.Timeout | undefined;
  const write = response.write;
  response.write = function (this: ServerResponse, ...args: Parameters<typeof write>) {
    const flushed = write.apply(this, args);
    if (!flushed && counted && !waitingForReader) {
      waitingForReader = setTimeout(() => {
        waitingForReader = undefined;
        leave();
      }, readerGraceMs());
      waitingForReader.unref();
    }
    return flushed;
  } as typeof write;
  const emit = response.emit;
  response.emit = function (this: ServerResponse, event: string | symbol, ...args: unknown[]) {
    if (event !== "drain") return emit.call(this, event, ...args);
    if (counted) {
      clearTimeout(waitingForReader);
      waitingForReader = undefined;
      return emit.call(this, event, ...args);
    }
    const resume = () => {
      take();
      emit.call(this, "drain");
    };
    const limit = inFlightLimit();
    if (limit <= 0 || mayEnterNow(key, limit)) resume();
    // Never refused with a 503 (its head is sent; it is cut instead), so never logged as whom.
    else wait(key, { response, who: UNNAMED, since: performance.now(), admit: resume, resuming: true });
    return true;
  } as typeof emit;
  response.once("close", () => {
    clearTimeout(cut);
    clearTimeout(waitingForReader);
    leave();
  });
  pass();
}

/** Takes the next waiting request of `key`'s queue: the oldest, or the newest once the queue is standing. */
function takeFrom(key: string, queue: Waiting[], now: number, maxWait: number): Waiting {
  // A queue that keeps requests waiting is standing: the newest is then served first, so that what is answered is
  // answered soon, and the oldest, least likely to be served, are the ones refused when their wait runs out.
  const resuming = queue.findIndex((waiting) => waiting.resuming);
  const standing = now - queue[0].since >= maxWait * STANDING_SHARE;
  const entry = resuming >= 0 ? queue.splice(resuming, 1)[0] : standing ? queue.pop()! : queue.shift()!;
  state.waitingCount--;
  // The tenant served goes to the back of the turn, behind the others with as few in flight.
  state.queues.delete(key);
  if (queue.length > 0) state.queues.set(key, queue);
  return entry;
}

/**
 * The waiting tenant under its share with the lowest virtual time (the least place time held); among equals, the
 * first in turn. None when the last free place is kept for another (mayTakeLast).
 */
function nextTenant(share: number, limit: number): [string, Waiting[]] | undefined {
  let best: [string, Waiting[]] | undefined;
  const now = performance.now();
  for (const [key, queue] of state.queues) {
    if (!underShare(key, share) || resting(key, share, now)) continue;
    if (!best || placeTime(key, now) < placeTime(best[0], now)) best = [key, queue];
  }
  return best && (limit <= 0 || mayTakeLast(best[0], limit)) ? best : undefined;
}

function takeOldestOfLongestQueue(): Waiting {
  let longest: [string, Waiting[]] = state.queues.entries().next().value!;
  for (const entry of state.queues) if (entry[1].length > longest[1].length) longest = entry;
  const [key, queue] = longest;
  const oldest = queue.shift()!;
  state.waitingCount--;
  if (queue.length === 0) state.queues.delete(key);
  return oldest;
}

/** Fills the free places from the queues, fairly between tenants; requests whose wait has run out are refused. */
function admitWaiting() {
  const limit = inFlightLimit();
  const maxWait = queueWaitLimitMs();
  refuseExpired(performance.now(), maxWait);
  while (state.waitingCount > 0 && (limit <= 0 || state.count < limit)) {
    const next = nextTenant(limit <= 0 ? Number.POSITIVE_INFINITY : waitingShare(limit), limit);
    if (!next) break;
    const entry = takeFrom(next[0], next[1], performance.now(), maxWait);
    if (waiting(entry)) entry.admit();
  }
  armShareTimer(limit);
  armDeadline();
}

/**
 * Places free but every waiting tenant at its share or resting: the shares grow when the first active tenant lapses
 * (it sent nothing for ACTIVE_MS), and a rest ends, so the waiting are looked at again at the first of those.
 */
function armShareTimer(limit: number) {
  clearTimeout(state.shareTimer);
  state.shareTimer = undefined;
  const now = performance.now();
  const share = limit > 0 ? waitingShare(limit) : 1;
  let at = Number.POSITIVE_INFINITY;
  for (const key of state.credit.keys()) {
    const credit = creditNow(key, share, now);
    if (credit >= BURST_MS) state.credit.delete(key);
    else if (credit <= 0 && share < 1 && state.queues.has(key)) at = Math.min(at, now - credit / share);
  }
  if (state.waitingCount === 0 || state.count >= limit) return;
  const [first] = state.lastSeen.values();
  if (first !== undefined) at = Math.min(at, first + ACTIVE_MS);
  if (at === Number.POSITIVE_INFINITY) return;
  state.shareTimer = setTimeout(admitWaiting, Math.max(1, at - now));
  state.shareTimer.unref();
}

const isIdle = () => state.count === 0 && state.waitingCount === 0 && state.arriving === 0;

function notifyIfIdle() {
  if (isIdle()) for (const resolve of state.onIdle) resolve();
}

/** Drops waiting requests whose callers have gone, and refuses those whose wait has run out. */
function refuseExpired(now: number, maxWait: number) {
  for (const [key, queue] of state.queues) {
    const kept = queue.filter((entry) => {
      if (!waiting(entry)) return false;
      if (entry.resuming || now - entry.since < maxWait) return true;
      refuse(entry.response, entry.who, "queue-wait");
      return false;
    });
    state.waitingCount -= queue.length - kept.length;
    if (kept.length === 0) state.queues.delete(key);
    else state.queues.set(key, kept);
  }
}

/** Drops the waiting requests whose callers have gone. */
function dropDeparted() {
  refuseExpired(performance.now(), Number.POSITIVE_INFINITY);
}

/** Refuses the waiting requests whose wait has run out, then waits for the next one's. */
function armDeadline() {
  clearTimeout(state.deadline);
  state.deadline = undefined;
  let oldest = Number.POSITIVE_INFINITY;
  for (const queue of state.queues.values())
    for (const entry of queue) if (!entry.resuming) oldest = Math.min(oldest, entry.since);
  if (oldest === Number.POSITIVE_INFINITY) return notifyIfIdle();
  const maxWait = queueWaitLimitMs();
  state.deadline = setTimeout(
    () => {
      refuseExpired(performance.now(), maxWait);
      armDeadline();
    },
    Math.max(0, oldest + maxWait - performance.now()),
  );
  state.deadline.unref();
}

/** Resolves true once no API request is arriving, in flight or waiting, or false after `timeoutMs`. */
export function requestsDrained(timeoutMs: number): Promise<boolean> {
  dropDeparted();
  if (isIdle()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (drained: boolean) => {
      clearTimeout(timer);
      state.onIdle.delete(idle);
      resolve(drained);
    };
    const idle = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    state.onIdle.add(idle);
  });
}
