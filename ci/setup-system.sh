#!/bin/sh
# System packages the web tests need: Debian's Chromium (Playwright drives it, no browser download)
# and PostgreSQL (initdb + pg_ctl for a throw-away cluster). Idempotent; runs as root with no stdin.
set -eu
missing=""
[ -x /usr/bin/chromium ] || missing="$missing chromium"
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    missing="$missing postgresql"
fi
if [ -z "$missing" ]; then
    echo "setup-system: chromium and postgresql present"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "setup-system: need root to install:$missing" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update </dev/null
# shellcheck disable=SC2086
apt-get install -y --no-install-recommends $missing </dev/null
echo "setup-system: installed$missing"
