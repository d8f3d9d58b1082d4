#!/bin/bash
# setup_npm_error.sh SOURCE_DIR: ci/setup with an npm that fails as a
# registry behind an intercepting proxy does (a stand-in first on PATH):
# setup must exit 1, show npm's own error and say which step failed. Stand-ins
# of dpkg-query and locale keep setup from installing anything.
set -uo pipefail
source=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/greenbench-setup.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cat >"$work/npm" <<'STUB'
#!/bin/sh
[ "$1" = ls ] && exit 1
echo "npm ERR! code SELF_SIGNED_CERT_IN_CHAIN" >&2
echo "npm ERR! request to https://registry.npmjs.org/xxhash-wasm failed" >&2
exit 1
STUB
# Every Debian package and the locale reported present, so that setup goes
# straight to npm and installs nothing.
printf '#!/bin/sh\nprintf "install ok installed"\n' >"$work/dpkg-query"
printf '#!/bin/sh\necho de_DE.utf8\n' >"$work/locale"
chmod +x "$work/npm" "$work/dpkg-query" "$work/locale"
PATH="$work:$PATH" bash "$source/ci/setup" >"$work/out" 2>&1
rc=$?
cat "$work/out"
[ $rc -eq 1 ] || { echo "FAIL: setup exited $rc, want 1"; exit 1; }
grep -q "^npm ERR! code SELF_SIGNED_CERT_IN_CHAIN$" "$work/out" || { echo "FAIL: npm's error is hidden"; exit 1; }
grep -qx "setup: error: npm ci failed in workers/node (npm's messages are above)" "$work/out" ||
  { echo "FAIL: setup does not say which step failed"; exit 1; }
echo "PASS"
