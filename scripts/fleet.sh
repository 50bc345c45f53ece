#!/usr/bin/env bash
# A fleet of `nuke serve` on this machine: nginx as the load balancer in front of N instances that share one
# redis-server (results and sources) and each keep a disk tier of their own, plus an nginx origin with sample images.
#
#   scripts/fleet.sh up [--instances N] [--port N] [--images DIR] [--dir DIR]
#   scripts/fleet.sh status [--dir DIR]
#   scripts/fleet.sh restart [--instance I] [--dir DIR]
#   scripts/fleet.sh down [--dir DIR]
#
# up      starts the origin, Redis, the instances and the balancer, and prints the balancer's URL as its last line.
#         Every NUKE_SERVE_* variable of the environment reaches each instance (`nuke serve` reads them); the fleet
#         sets only what differs per instance (--port, --cache-dir) and, when they are not set, NUKE_SERVE_REDIS (the
#         fleet's Redis) and NUKE_SERVE_ALLOW_SOURCE_ADDRESSES (127.0.0.1, where the origin listens).
#         --instances N   instances behind the balancer (default 2)
#         --port N        the balancer's port (default: a free one)
#         --images DIR    what the origin serves (default: generated samples, photo.png/.jpg/.webp 1600×1200,
#                         and Pillow's animated chi.gif)
# status  prints `ROLE PID PORT` for every process `up` started (roles balancer, serve, redis, origin); exits 1,
#         naming them on standard error, if any is no longer running.
# restart restarts the instances one at a time (or only instance I, from 1): SIGTERM, wait until it has finished
#         what is in flight and exited, start it again on the same port with the settings `up` saw.
# down    stops exactly the processes `up` started (SIGTERM, then SIGKILL after the instances' grace), and nothing
#         else: a PID is signalled only while it still runs the program it was started as.
#
# --dir DIR (or NUKE_FLEET_DIR) holds the state, configs, logs and caches (default /tmp/nuke-fleet); the `nuke`
# binary is NUKE_BIN, else .build/release/nuke, built if missing. Needs nginx, redis-server, python3 and curl
# (scripts/setup.sh installs them).
set -euo pipefail

# Descriptors the caller left open (a pipe it waits on for this script's end, say) are closed first, so the servers
# started below don't hold them for their whole life.
for fd in /proc/$$/fd/*; do
    fd="${fd##*/}"
    if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd>&-" 2>/dev/null || true; fi
done

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
state="${NUKE_FLEET_DIR:-/tmp/nuke-fleet}"
instances=2
balancer_port=0
images=""
only_instance=""

usage() {
    sed -n '4,7p' "${BASH_SOURCE[0]}" | sed 's/^#   //' >&2
    exit 64
}

[ $# -ge 1 ] || usage
command="$1"
shift
while [ $# -gt 0 ]; do
    case "$1" in
        --instances) instances="${2:?--instances needs a number}"; shift 2 ;;
        --port) balancer_port="${2:?--port needs a number}"; shift 2 ;;
        --images) images="${2:?--images needs a directory}"; shift 2 ;;
        --dir) state="${2:?--dir needs a directory}"; shift 2 ;;
        --instance) only_instance="${2:?--instance needs a number}"; shift 2 ;;
        -h|--help) usage ;;
        *) echo "fleet.sh: unknown argument '$1'" >&2; usage ;;
    esac
done
case "$instances" in ''|*[!0-9]*) echo "fleet.sh: --instances needs a whole number, got '$instances'" >&2; exit 64 ;; esac
[ "$instances" -ge 1 ] || { echo "fleet.sh: --instances needs at least 1" >&2; exit 64; }

processes="$state/processes"

starting=0

# Says why and exits 1; a failing `up` first stops what it started.
fail() {
    echo "fleet.sh: $*" >&2
    if [ "$starting" = 1 ] && [ -f "$processes" ]; then
        starting=0
        down
    fi
    exit 1
}

# A TCP port nothing listens on now, on 127.0.0.1.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Runs COMMAND… with no signal blocked: a caller may have blocked SIGTERM (a test runner's children inherit its mask),
# and the servers must get the SIGTERM that `down` and `restart` send.
unblocked() {
    exec python3 -c 'import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}

# Whether PID still runs the program named PROGRAM (the PID may have been reused since `up`).
runs() {
    local pid="$1" program="$2"
    [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$program"
}

program_of() {
    case "$1" in
        balancer|origin) echo nginx ;;
        redis) echo redis-server ;;
        serve) echo "nuke serve" ;;
    esac
}

# Waits up to 30 s for `curl URL` to succeed.
wait_for_http() {
    local url="$1" name="$2"
    for _ in $(seq 300); do
        curl -s -o /dev/null --max-time 1 "$url" && return 0
        sleep 0.1
    done
    fail "$name did not answer at $url"
}

# The nginx config of a server with LOCATIONS, in DIR, on PORT (one process, no master, logs in DIR).
nginx_config() {
    local dir="$1" port="$2" body="$3"
    mkdir -p "$dir"
    cat >"$dir/nginx.conf" <<EOF
daemon off;
master_process off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log;
events { worker_connections 4096; }
http {
    log_format fleet '\$remote_addr \$status \$body_bytes_sent \$request_time "\$request" \$upstream_addr';
    access_log $dir/access.log fleet;
    client_body_temp_path $dir/tmp-body;
    proxy_temp_path $dir/tmp-proxy;
    fastcgi_temp_path $dir/tmp-fastcgi;
    uwsgi_temp_path $dir/tmp-uwsgi;
    scgi_temp_path $dir/tmp-scgi;
    keepalive_requests 100000;
    sendfile on;
    types { image/png png; image/jpeg jpg; image/gif gif; image/webp webp; image/avif avif; }
$body
}
EOF
}

# photo.png (1600×1200, smooth gradients with detail, as a photo compresses), photo.jpg and photo.webp from it, and
# Pillow's animated chi.gif from the repository's fixtures.
make_samples() {
    local dir="$1" nuke="$2"
    python3 - "$dir/photo.png" <<'EOF'
import math, struct, sys, zlib
width, height = 1600, 1200
rows = bytearray()
for y in range(height):
    rows.append(0)
    for x in range(width):
        r = int(127 + 127 * math.sin(x / 97.0) * math.cos(y / 131.0))
        g = int(255 * y / height)
        b = int(127 + 120 * math.sin((x + y) / 53.0)) ^ ((x * 7 + y * 13) & 15)
        rows += bytes((r, g, b & 255))
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(bytes(rows), 6)) + chunk(b"IEND", b"")
open(sys.argv[1], "wb").write(png)
EOF
    local out="$state/samples-out"
    for format in jpeg webp; do
        rm -rf "$out"
        "$nuke" fetch "$dir/photo.png" --format "$format" -o "$out" >/dev/null
        local made
        made="$(ls "$out" | head -1)"
        [ -n "$made" ] || fail "nuke fetch made no $format sample"
        mv "$out/$made" "$dir/photo.${format/jpeg/jpg}"
    done
    rm -rf "$out"
    cp "$repo/Tests/DecoderGIFTests/Fixtures/pillow/chi.gif" "$dir/chi.gif"
}

# Starts instance INDEX on PORT (0: a free one) with the NUKE_SERVE_* settings `up` saw, records it as
# `serve PID PORT INDEX`, and prints its port. Every run of the instance appends to its serve.log.
start_instance() {
    local index="$1" port="$2" dir="$state/serve-$index" nuke="${NUKE_BIN:-$repo/.build/release/nuke}"
    mkdir -p "$dir/cache"
    touch "$dir/serve.log"
    local before
    before="$(wc -l <"$dir/serve.log")"
    (
        # shellcheck disable=SC1091
        . "$state/environment"
        unblocked "$nuke" serve --port "$port" --cache-dir "$dir/cache" </dev/null >>"$dir/serve.log" 2>&1
    ) &
    local pid=$! listening=""
    for _ in $(seq 600); do
        listening="$(tail -n "+$((before + 1))" "$dir/serve.log" |
            sed -n 's|^listening on http://[^ ]*:\([0-9]*\)$|\1|p' | head -1)"
        [ -n "$listening" ] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    [ -n "$listening" ] || fail "instance $index did not start: $(tail -n "+$((before + 1))" "$dir/serve.log" | tail -3)"
    echo "serve $pid $listening $index" >>"$processes"
    echo "$listening"
}

up() {
    if [ -f "$processes" ]; then
        while read -r role pid port _; do
            runs "$pid" "$(program_of "$role")" && fail "a fleet is already up in $state (scripts/fleet.sh down first)"
        done <"$processes"
    fi
    for tool in nginx redis-server python3 curl; do
        command -v "$tool" >/dev/null || fail "$tool is not installed (scripts/setup.sh installs it)"
    done
    local nuke="${NUKE_BIN:-$repo/.build/release/nuke}"
    if [ ! -x "$nuke" ]; then
        echo "fleet.sh: building nuke (release)…" >&2
        swift build -c release --product nuke --package-path "$repo" >&2
    fi

    rm -rf "$state"
    mkdir -p "$state/origin/html" "$state/redis"
    : >"$processes"
    starting=1
    if [ -n "$images" ]; then
        cp -R "$images/." "$state/origin/html/"
    else
        make_samples "$state/origin/html" "$nuke"
    fi

    # The origin: nginx serving the images, with its default caching headers (ETag, Last-Modified).
    local origin_port
    origin_port="$(free_port)"
    nginx_config "$state/origin" "$origin_port" \
        "    server { listen 127.0.0.1:$origin_port; root $state/origin/html; }"
    unblocked nginx -p "$state/origin" -c "$state/origin/nginx.conf" -e "$state/origin/error.log" \
        </dev/null >"$state/origin/stdout.log" 2>&1 &
    echo "origin $! $origin_port" >>"$processes"
    wait_for_http "http://127.0.0.1:$origin_port/" origin

    # Redis: shared by the instances, in memory only, evicting the least recently used keys past 512 MB.
    local redis_port
    redis_port="$(free_port)"
    unblocked redis-server --bind 127.0.0.1 --port "$redis_port" --save "" --appendonly no --dir "$state/redis" \
        --maxmemory 512mb --maxmemory-policy allkeys-lru --logfile "$state/redis/redis.log" \
        </dev/null >"$state/redis/stdout.log" 2>&1 &
    echo "redis $! $redis_port" >>"$processes"
    for _ in $(seq 300); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$redis_port" && printf 'PING\r\n' >&3 && read -r -t 1 reply <&3 &&
            [ "${reply%$'\r'}" = "+PONG" ]) 2>/dev/null; then
            break
        fi
        sleep 0.1
    done

    # The instances: the environment's NUKE_SERVE_* settings, the fleet's Redis and origin unless they are set.
    export NUKE_SERVE_REDIS="${NUKE_SERVE_REDIS:-redis://127.0.0.1:$redis_port}"
    export NUKE_SERVE_ALLOW_SOURCE_ADDRESSES="${NUKE_SERVE_ALLOW_SOURCE_ADDRESSES:-127.0.0.1}"
    env | grep '^NUKE_SERVE_' | sed 's/^/export /; s/=\(.*\)$/="\1"/' >"$state/environment" || true
    local upstreams="" index port
    for index in $(seq "$instances"); do
        port="$(start_instance "$index" 0)"
        upstreams+="        server 127.0.0.1:$port max_fails=0;"$'\n'
    done

    # The balancer: round robin, keep-alive to the instances, and a request that fails to connect, loses its
    # connection before the response, or gets a 502 or 504 tried on the next instance (nginx retries only while
    # nothing has been sent to the client), within the request's first second: a 504 that took the whole source
    # timeout goes to the client rather than waiting for the same origin again. No instance is ever marked down (max_fails=0): on one host a refused
    # connection costs microseconds, and marking would take a restarted instance out for fail_timeout, and both of
    # two out when a rolling restart reaches the second within it.
    [ "$balancer_port" != 0 ] || balancer_port="$(free_port)"
    nginx_config "$state/balancer" "$balancer_port" "    upstream nuke {
$upstreams        keepalive 64;
    }
    server {
        listen 127.0.0.1:$balancer_port;
        location / {
            proxy_pass http://nuke;
            proxy_http_version 1.1;
            proxy_set_header Connection \"\";
            proxy_set_header Host \$host;
            proxy_connect_timeout 2s;
            proxy_read_timeout 60s;
            proxy_next_upstream error timeout http_502 http_504;
            proxy_next_upstream_tries $instances;
            proxy_next_upstream_timeout 1s;
            proxy_buffering on;
        }
    }"
    unblocked nginx -p "$state/balancer" -c "$state/balancer/nginx.conf" -e "$state/balancer/error.log" \
        </dev/null >"$state/balancer/stdout.log" 2>&1 &
    echo "balancer $! $balancer_port" >>"$processes"
    wait_for_http "http://127.0.0.1:$balancer_port/health" balancer
    starting=0
    echo "http://127.0.0.1:$balancer_port"
}

status() {
    [ -f "$processes" ] || fail "no fleet in $state"
    local stopped=0
    while read -r role pid port _; do
        echo "$role $pid $port"
        if ! runs "$pid" "$(program_of "$role")"; then
            echo "fleet.sh: $role $pid (port $port) is not running" >&2
            stopped=1
        fi
    done <"$processes"
    return "$stopped"
}

down() {
    [ -f "$processes" ] || fail "no fleet in $state"
    # The balancer first (no new requests), then the instances (they finish what is in flight), Redis, the origin.
    local order=(balancer serve redis origin) role pid port wanted
    for wanted in "${order[@]}"; do
        local pids=()
        while read -r role pid port _; do
            [ "$role" = "$wanted" ] && runs "$pid" "$(program_of "$role")" && pids+=("$pid")
        done <"$processes"
        [ ${#pids[@]} -gt 0 ] || continue
        kill -TERM "${pids[@]}" 2>/dev/null || true
        for _ in $(seq 150); do
            local alive=0
            for pid in "${pids[@]}"; do runs "$pid" "$(program_of "$wanted")" && alive=1; done
            [ "$alive" = 0 ] && break
            sleep 0.1
        done
        for pid in "${pids[@]}"; do
            runs "$pid" "$(program_of "$wanted")" && kill -KILL "$pid" 2>/dev/null || true
        done
    done
    rm -f "$processes"
}

# Restarts the instances one at a time (or only --instance I): SIGTERM, wait for it to finish what is in flight and
# exit, start it again on the same port with the same settings. The balancer sends requests to the others meanwhile.
restart() {
    [ -f "$processes" ] || fail "no fleet in $state"
    local role pid port index
    while read -r role pid port index; do
        [ "$role" = serve ] || continue
        [ -z "$only_instance" ] || [ "$index" = "$only_instance" ] || continue
        if runs "$pid" "nuke serve"; then
            kill -TERM "$pid"
            for _ in $(seq 300); do
                runs "$pid" "nuke serve" || break
                sleep 0.1
            done
            runs "$pid" "nuke serve" && kill -KILL "$pid"
        fi
        grep -v "^serve $pid $port " "$processes" >"$processes.new" || true
        mv "$processes.new" "$processes"
        start_instance "$index" "$port" >/dev/null
        echo "restarted instance $index on port $port"
    done < <(cat "$processes")
}

case "$command" in
    up) up ;;
    restart) restart ;;
    status) status ;;
    down) down ;;
    *) echo "fleet.sh: unknown command '$command'" >&2; usage ;;
esac
