#!/usr/bin/env bash
# `scripts/watchdog.sh SECONDS COMMAND...`: runs COMMAND; if it is still running after SECONDS, prints the stack of
# every thread of every process under it (with gdb, when installed), then stops them all and exits 124. A test
# that hangs thus fails CI with the place it hangs, instead of holding the whole run until CI's own limit.
set -uo pipefail
limit=$1
shift

# Its own process group, so the whole tree (swift test, the test binary, servers the tests started) can be stopped.
setsid "$@" &
leader=$!

descendants() {
    local children
    children=$(pgrep -P "$1" || true)
    for child in $children; do
        echo "$child"
        descendants "$child"
    done
}

deadline=$((SECONDS + limit))
while kill -0 "$leader" 2>/dev/null; do
    if [ "$SECONDS" -ge "$deadline" ]; then
        echo "watchdog: still running after ${limit} s: $*" >&2
        for pid in $leader $(descendants "$leader"); do
            echo "watchdog: process $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-200)" >&2
            if command -v gdb >/dev/null; then
                timeout 120 gdb -p "$pid" -batch -nx -ex "set pagination off" -ex "thread apply all bt 30" \
                    2>/dev/null | grep -E '^(Thread|#)' | cut -c1-240 >&2
            fi
        done
        kill -TERM -- "-$leader" 2>/dev/null
        sleep 5
        kill -KILL -- "-$leader" 2>/dev/null
        wait "$leader" 2>/dev/null
        exit 124
    fi
    sleep 2
done
wait "$leader"
