#!/usr/bin/env bash
# Run a command with this checkout mounted read-only: every write into the checkout (its
# ignored folders included: data/, .venv/, notebooks/, …) fails with "Read-only file system",
# so a command that passes here writes only outside it (temporary folders, $HOME's caches).
#
#   tools/read_only_checkout.sh make portability
#
# The read-only view exists only for the command, in a private mount namespace; the checkout
# stays writable for everything else. Needs root (CI) or unprivileged user namespaces
# (`unshare --map-root-user`); where neither works it stops with a message and exit code 3,
# and runs nothing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -eq 0 ]; then
  echo "usage: $0 COMMAND [ARG…]" >&2; exit 2
fi
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(--map-root-user)
probe=(unshare "${as_root[@]}" --mount --propagation private
       sh -c 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1"' sh "$root")
if ! err=$("${probe[@]}" 2>&1); then
  echo "read_only_checkout: cannot mount $root read-only here (${err:-unshare failed}):" \
       "it needs root or unprivileged user namespaces. Nothing was run." >&2
  exit 3
fi
# Inside: bind the checkout onto itself, remount that read-only, prove it, then run.
exec unshare "${as_root[@]}" --mount --propagation private sh -c '
  root=$1; shift
  mount --bind "$root" "$root" && mount -o remount,ro,bind "$root" || exit 3
  if touch "$root/.read-only-probe" 2>/dev/null; then
    rm -f "$root/.read-only-probe"; echo "read_only_checkout: $root is still writable" >&2; exit 3
  fi
  echo "read_only_checkout: $root is mounted read-only for: $*" >&2
  cd "$root" && exec "$@"' sh "$root" "$@"
