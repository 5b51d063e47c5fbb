#!/usr/bin/env bash
# Issue 21: a production install starts. Copies this checkout's files and its build (apps/web/dist, apps/server/dist:
# run `npm run build` first) to a temporary directory, installs the production dependencies only there
# (`npm ci --omit=dev`: the same packages `npm ci && npm prune --omit=dev` leaves), starts the portal with
# `NODE_ENV=production npm start` and checks that it answers /health, redirects / and serves the web app.
# The checkout's own node_modules are not touched. Used by .ci/run; runs alone too.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

for built in apps/server/dist/server.js apps/web/dist/index.html; do
  [ -f "$built" ] || { echo "check-production-install: $built is missing: run npm run build first" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/keyport-production-XXXXXX")
server_pid=""
cleanup() {
  # The server runs in a process group of its own (setsid below): npm, the start script and the portal stop together.
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -- "-$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# The repository's files as they are here (tracked and new, not ignored), then the build, times kept: `npm start`
# rebuilds when a source is newer than the build, which a production install cannot do (no build tools).
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$work"
tar -cf - apps/server/dist apps/web/dist | tar -xf - -C "$work"

cd "$work"
npm ci --omit=dev --no-audit --no-fund --loglevel=error
if [ -e node_modules/vite ] || [ -e node_modules/vitest ] || [ -e node_modules/typescript ]; then
  echo "check-production-install: development packages were installed" >&2
  exit 1
fi

port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
log="$work/server.log"
# Production with the sandbox integrations and the seller's details an operator must give (docs/deployment.md).
NODE_ENV=production HOST=127.0.0.1 PORT="$port" PUBLIC_URL="http://127.0.0.1:$port" DATA_DIR="$work/data" \
  SANDBOX_INTEGRATIONS=true SELLER_NAME="Keyport CI Ltd" SELLER_ADDRESS="1 Test Street, Dublin, Ireland" \
  SELLER_VAT_ID="IE6388047V" setsid npm start >"$log" 2>&1 &
server_pid=$!

# Node's fetch rather than curl: every machine that runs this has Node.
PORTAL_URL="http://127.0.0.1:$port" SERVER_PID="$server_pid" node --input-type=module -e '
const url = process.env.PORTAL_URL;
const alive = () => { try { process.kill(Number(process.env.SERVER_PID), 0); return true; } catch { return false; } };
const fail = (message) => { console.error(`check-production-install: ${message}`); process.exit(1); };
let health = null;
for (let i = 0; i < 240 && !health; i++) {
  if (!alive()) fail("the production server stopped");
  health = await fetch(`${url}/health`).then((r) => (r.ok ? r.text() : null), () => null);
  if (!health) await new Promise((resolve) => setTimeout(resolve, 500));
}
if (health !== JSON.stringify({ status: "ok" })) fail(`GET /health answered ${health}`);
// No Accept-Encoding: the root redirects (it answered 403 before issue 21).
const root = await fetch(`${url}/`, { redirect: "manual", headers: { "accept-encoding": "identity" } });
if (root.status !== 302 || root.headers.get("location") !== "/customer/my-keys")
  fail(`GET / answered ${root.status} ${root.headers.get("location")}`);
const page = await fetch(`${url}/customer/my-keys`);
if (page.status !== 200 || !page.headers.get("content-type")?.startsWith("text/html") ||
  !(await page.text()).includes("<div id=\"root\">"))
  fail("GET /customer/my-keys did not answer the web app");
' || { tail -n 40 "$log" >&2; exit 1; }
echo "Production install (npm ci --omit=dev) started with NODE_ENV=production: /health ok, / redirects, web app served"
