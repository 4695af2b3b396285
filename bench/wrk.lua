-- The requests of one benchmark scenario for wrk (bench/run.ts writes them to BENCH_REQUESTS, one per line: a path
-- for a GET, or "<METHOD> <path> <JSON body>" where each {key} in the body becomes a text unique to the request, so
-- that each create has a fresh name and each update a new value), sent in turn with the scenario's token
-- (BENCH_TOKEN, none when empty). At the end, one line of JSON for bench/run.ts to read.
local requests = {}
for line in io.lines(os.getenv("BENCH_REQUESTS")) do
  requests[#requests + 1] = line
end
local run_id = os.getenv("BENCH_RUN_ID") or "run"
local token = os.getenv("BENCH_TOKEN") or ""

-- BENCH_ACCEPT for an endpoint that wants more (MCP's Streamable HTTP: JSON and event streams).
wrk.headers["Accept"] = os.getenv("BENCH_ACCEPT") or "application/json"
-- Here rather than per request: wrk.format() takes the headers it is given instead of wrk.headers, not on top.
wrk.headers["Content-Type"] = "application/json"
if token ~= "" then
  wrk.headers["Authorization"] = "Bearer " .. token
end

local turn = 0
local sent = 0
-- Threads have their own Lua state: setup() gives each a number (the global thread_id) for the names it creates.
local next_thread_id = 0

function setup(thread)
  next_thread_id = next_thread_id + 1
  thread:set("thread_id", next_thread_id)
end

function request()
  turn = turn % #requests + 1
  local line = requests[turn]
  local method, path, body = line:match("^(%u+) (%S+) (.*)$")
  if method then
    sent = sent + 1
    local key = string.format("%s-%d-%d", run_id, thread_id or 0, sent)
    return wrk.format(method, path, nil, (body:gsub("{key}", key)))
  end
  return wrk.format("GET", line)
end

function done(summary, latency, _)
  local errors = summary.errors
  io.write(string.format(
    '\nBENCH_RESULT {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"max_us":%d,"status_errors":%d,' ..
      '"socket_errors":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max,
    errors.status, errors.connect + errors.read + errors.write + errors.timeout))
end
