#!/usr/bin/env bash
# Runs README.md's blocks, and those of the docs/*.md it links, as a newcomer would, in this folder, so that
# documentation drifting from the code fails CI (.ci/run runs it on a fresh clone of the commit). Each block is read
# by its heading from whichever of those files has it (headings are unique across them); only the ports, the
# database name and the demo token are filled in. In order: the quick start (as written, installing and building
# this folder), the Syncing example (curl, jq) and the TypeScript snippet against the demo it started; then the
# PostgreSQL block with the Upstash emulator, the health check's example answer, the Onboarding commands and
# token:create against that server.
# Needs PostgreSQL at 127.0.0.1:5432 (user postgres, trust), Redis at 127.0.0.1:6379, curl, jq and ss.
# README_DB names a database it may drop and create (default cjt_readme); ports are picked free unless
# README_PORT (the quick start), README_PG_PORT and README_UPSTASH_PORT are set.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
readme=("$repo/README.md" "$repo"/docs/*.md)
db=${README_DB:-cjt_readme}
work=$(mktemp -d /tmp/cjt-readme-XXXXXX)
free_port() { node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }
port=${README_PORT:-$(free_port)}
pg_port=${README_PG_PORT:-$(free_port)}
upstash_port=${README_UPSTASH_PORT:-$(free_port)}
say() { printf '\n--- README: %s\n' "$*"; }
fail() {
  printf 'README check failed: %s\n' "$*" >&2
  exit 1
}

# The n-th fenced block (1-based) under a heading (a whole line of README.md or a docs/ file), before the next
# heading; a block indented in a list item loses its indentation.
block() {
  awk -v heading="$1" -v want="$2" '
    $0 == heading { under = 1; next }
    under && !fence && /^#/ { exit }
    under && /^ *```/ {
      if (!fence) { fence = 1; n++; match($0, /^ */); indent = RLENGTH; next }
      fence = 0; if (n == want) exit; next
    }
    under && fence && n == want { print substr($0, indent + 1) }
  ' "${readme[@]}"
}

# Stops the server listening on a port by its own pid (killing npm leaves next-server running), and waits for it.
stop_server() {
  local pid
  pid=$(ss -ltnpH "sport = :$1" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
  [ -n "$pid" ] || fail "nothing listens on port $1"
  kill -TERM "$pid"
  for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.5; done
  fail "the server on port $1 (pid $pid) did not stop within 30 s of SIGTERM"
}

# Waits until a command's log shows a pattern (the command still running), up to a number of seconds.
wait_for() {
  local log=$1 pattern=$2 seconds=$3 pid=$4
  for _ in $(seq 1 "$seconds"); do
    grep -qE "$pattern" "$log" && return 0
    kill -0 "$pid" 2>/dev/null || { tail -40 "$log"; fail "it stopped before printing /$pattern/"; }
    sleep 1
  done
  tail -40 "$log"
  fail "no /$pattern/ within $seconds s"
}

wait_answers() {
  for _ in $(seq 1 180); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$1")" != 000 ] && return 0
    sleep 1
  done
  fail "$1 did not answer within 180 s"
}

cleanup() {
  set +e # servers already stopped leave nothing to find
  for p in "$port" "$pg_port" "$upstash_port"; do
    pid=$(ss -ltnpH "sport = :$p" 2>/dev/null | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
    [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null
  done
  return 0
}
trap cleanup EXIT

say "Quick start on port $port"
quick_start=$(block "## Quick start" 1 | sed 's/ *#.*//')
[ "$quick_start" = "npm install && npm run demo" ] || fail "unexpected quick start: $quick_start"
PORT=$port bash -c "$quick_start" >"$work/demo.log" 2>&1 &
demo=$!
wait_for "$work/demo.log" '^ +curl -H "Authorization: Bearer ' 1800 "$demo"
printed=$(grep -m1 -E '^ +curl -H "Authorization: Bearer ' "$work/demo.log" | sed 's/^ *//')
# The printed call is the README's, with this port; it reads the seed's token from its file, never printed.
shown=$(block "## Quick start" 2)
[ "$(sed -E "s/localhost:$port/localhost:3000/" <<<"$printed")" = "$shown" ] ||
  fail "the printed call differs from the README's: $printed"
! grep -qE "cjt_[A-Za-z0-9]{40}|demo-password" "$work/demo.log" || fail "npm run demo printed the demo token or password"
wait_answers "http://localhost:$port/api/live"
status=$(eval "$printed -sS -o $work/me.json -w '%{http_code}'")
[ "$status" = 200 ] || fail "the printed curl answered $status"
[ "$(jq -r '"\(.firstname) \(.lastname)"' "$work/me.json")" = "Olivia Owner" ] || fail "not the demo owner: $(cat "$work/me.json")"
echo "the printed curl answers 200 with Olivia Owner"
TOKEN=$(cat .data/demo-token)
API=http://localhost:$port/api/v1
export TOKEN API

say "Syncing: all clients, a retried write, then only the changes"
heading="### Syncing: changes since, cursor pages, safe retries"
mkdir "$work/sync"
(
  cd "$work/sync"
  # One shell, as a reader would run the blocks one after another (the later sync reuses sync_clients and $since).
  bash -euo pipefail -c "{
$(block "$heading" 1)
} >first.out
{
$(block "$heading" 2)
} | tr -d '\r' >retry.out
first=\$(wc -l <clients.jsonl)
$(block "$heading" 4)
tail -n +\$((first + 1)) clients.jsonl >second.jsonl"
  expected=$(grep -ho 'prints `synced [0-9]* clients; newest change' "${readme[@]}" | grep -o '[0-9][0-9]*')
  grep -qE "^synced $expected clients; newest change [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$" first.out ||
    fail "the first sync printed: $(cat first.out)"
  cat first.out
  diff <(block "$heading" 3) retry.out || fail "the retried write's headers differ from the README's"
  cat retry.out
  # The changed client, and again those written within the minute before the first sync's newest change (on a
  # fresh demo all of them): never more than there are.
  [ "$(jq -r 'select(.city == "Whitby") | .uuid' second.jsonl)" = "$(head -1 clients.jsonl | jq -r .uuid)" ] ||
    fail "the second sync did not read the changed client"
  [ "$(wc -l <second.jsonl)" -le "$expected" ] || fail "the second sync read $(wc -l <second.jsonl) clients"
  echo "the second sync read $(wc -l <second.jsonl) client(s), the changed one among them"
)

say "The TypeScript snippet"
heading="### Calling the API from TypeScript"
mkdir "$work/ts"
(
  cd "$work/ts"
  echo '{ "name": "readme-snippet", "private": true, "type": "module" }' >package.json
  block "$heading" 1 | sed "s#localhost:3000#localhost:$port#g" >install.sh
  bash -euo pipefail install.sh
  block "$heading" 2 | sed "s#localhost:3000#localhost:$port#g" >example.ts
  # Compiled under --strict by this project's TypeScript, then run as the README says (tsx).
  node "$repo/node_modules/typescript/bin/tsc" --noEmit --strict --skipLibCheck --target es2022 --module esnext \
    --moduleResolution bundler --types node example.ts
  # npm_config_loglevel: npm's own warnings (e.g. about a machine's user config) are not the snippet's output.
  CJT_TOKEN=$TOKEN npm_config_loglevel=error npx tsx example.ts >run.out 2>&1 || { cat run.out; fail "the snippet failed"; }
  # What the README says it prints, and nothing else (a refusal would print its message instead).
  grep -qxE "Olivia Owner has [0-9]+ jobs due this month\." run.out &&
    grep -qxE "Created Harbour Bakery Ltd \([0-9a-f-]{36}\)\." run.out &&
    [ "$(wc -l <run.out)" -eq 2 ] || { cat run.out; fail "the snippet did not print what the README says"; }
  cat run.out
  found=$(curl -sf -H "Authorization: Bearer $TOKEN" "$API/clients/search?q=Harbour%20Bakery" |
    jq '[.clients[] | select(.name == "Harbour Bakery Ltd")] | length')
  [ "$found" -ge 1 ] || fail "the snippet's client was not created"
  echo "compiled, ran, and created Harbour Bakery Ltd"
)

stop_server "$port"
wait "$demo" || fail "npm run demo exited $? after SIGTERM"
echo "stopped the demo server"

say "The Upstash emulator (port $upstash_port) and the PostgreSQL block (database $db, port $pg_port)"
emulator_line=$(block "# Rate limits" 1 | head -1 | sed 's/ *#.*//')
UPSTASH_EMULATOR_PORT=$upstash_port bash -c "$emulator_line" >"$work/emulator.log" 2>&1 &
emulator=$!
wait_for "$work/emulator.log" "UPSTASH_REDIS_REST_URL=http://127.0.0.1:$upstash_port" 120 "$emulator"
upstash_env=$(block "# Rate limits" 1 | sed -n 2p | grep -oE 'UPSTASH_REDIS_REST_(URL|TOKEN)=[^ ]+' | sed "s/:8079/:$upstash_port/")
dropdb --if-exists --force -h 127.0.0.1 -U postgres "$db"
pg_block=$(block "## Using a real PostgreSQL" 1 |
  sed -E "s#(createdb .* )cjt\$#\1$db#; s#5432/cjt\$#5432/$db#; s#localhost:3000#localhost:$pg_port#" |
  # The demo above built this folder already.
  sed 's/^npm run build && npm start/npm start/')
grep -q "^npm start" <<<"$pg_block" || fail "the PostgreSQL block no longer ends in a build and npm start"
mkdir "$work/pg"
# shellcheck disable=SC2086 # the emulator's two settings, as the README's line sets them
env PORT="$pg_port" $upstash_env bash -euo pipefail -c "$pg_block" >"$work/pg.log" 2>&1 &
pg_server=$!
wait_for "$work/pg.log" 'Ready in|started server' 900 "$pg_server"
wait_answers "http://localhost:$pg_port/api/live"
export DATABASE_URL=postgresql://postgres@127.0.0.1:5432/$db

say "The health check's example answer"
curl -sf "http://localhost:$pg_port/api/health" >"$work/health.json" || fail "GET /api/health did not answer 200"
migrations=$(find prisma/migrations -mindepth 1 -maxdepth 1 -type d | wc -l)
example=$(awk '/^ *```json/ { f = 1; s = ""; next } f && /^ *```/ { f = 0; if (s ~ /"status":"ok"/) { print s; exit } } f { s = s $0 }' "${readme[@]}")
# The example leaves out the count of applied migrations (it grows with every release): the live answer's is theirs.
[ "$(sed "s/\"applied\":…/\"applied\":$migrations/" <<<"$example" | jq -S .)" = "$(jq -S . "$work/health.json")" ] ||
  fail "GET /api/health answered $(cat "$work/health.json"), the README shows $example"
cat "$work/health.json"
echo

say "Onboarding a firm, and token:create"
bash -euo pipefail -c "$(block "## Onboarding a firm" 1)" >"$work/onboarding.log" 2>&1 ||
  { cat "$work/onboarding.log"; fail "the onboarding commands failed"; }
grep -q 'Added Sam Lee <sam@harper.example> to Harper & Co as Admin.' "$work/onboarding.log" ||
  fail "user:create did not say it added Sam Lee"
reset_link=$(grep -oE 'http://localhost:[0-9]+/reset/[A-Za-z0-9_-]{43}' "$work/onboarding.log" | head -1)
[ -n "$reset_link" ] || fail "user:reset-password printed no link"
curl -sf "http://localhost:$pg_port/reset/${reset_link##*/reset/}" | grep -q "Set a new password" ||
  fail "the reset link of user:reset-password does not open its page"
token_command=$(grep -ho '`npm run token:create -- --email owner@acme.test --name "My script"`' "${readme[@]}" | head -1 | tr -d '`')
[ -n "$token_command" ] || fail "the Tokens section's token:create line is gone"
new_token=$(bash -c "$token_command" 2>/dev/null | grep -o 'cjt_[A-Za-z0-9]*' | head -1)
[ "$(curl -sf -H "Authorization: Bearer $new_token" "http://localhost:$pg_port/api/v1/me" | jq -r .email)" = owner@acme.test ] ||
  fail "the token from token:create does not answer /me as owner@acme.test"
echo "tenant:create, user:create, user:archive, user:reset-password and token:create work as shown"

stop_server "$pg_port"
wait "$pg_server" || fail "npm start on PostgreSQL exited $? after SIGTERM"
stop_server "$upstash_port"
dropdb --if-exists --force -h 127.0.0.1 -U postgres "$db"
rm -rf "$work"
printf '\nREADME check passed.\n'
