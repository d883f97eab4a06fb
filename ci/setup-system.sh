#!/bin/sh
# System packages the web tests need: Debian's Chromium (Playwright drives it, no browser download)
# and PostgreSQL (initdb + pg_ctl for a throw-away cluster); nginx for the room-affinity proxy test
# (tests/web/test_proxy_affinity.py, which skips without it: optional). Idempotent; runs as root with no stdin.
set -eu
missing=""
[ -x /usr/bin/chromium ] || missing="$missing chromium"
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    missing="$missing postgresql"
fi
optional=""
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || optional="nginx"
if [ -z "$missing$optional" ]; then
    echo "setup-system: chromium, postgresql and nginx present"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    if [ -n "$missing" ]; then
        echo "setup-system: need root to install:$missing $optional" >&2
        exit 1
    fi
    echo "setup-system: nginx not installed (needs root); the proxy test will be skipped"
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update </dev/null
if [ -n "$missing" ]; then
    # shellcheck disable=SC2086
    apt-get install -y --no-install-recommends $missing </dev/null
fi
if [ -n "$optional" ]; then
    # nginx is optional: a failed install skips one test, it does not stop the run
    # shellcheck disable=SC2086
    apt-get install -y --no-install-recommends $optional </dev/null || echo "setup-system: nginx could not be installed"
fi
echo "setup-system: installed$missing $optional"
