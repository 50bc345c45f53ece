#!/usr/bin/env bash
# A soak test of a fleet of `nuke serve` (scripts/fleet.sh): a steady, modest load for a long time, watching each
# instance's memory and open descriptors for growth and every response for a 5xx.
#
#   scripts/soak.sh [--minutes M] [--rate R] [--instances N] [--warmup M] [--dir DIR]
#
# Brings a fleet up in DIR/fleet (default DIR /tmp/nuke-soak; `nuke` is NUKE_BIN, else .build/release/nuke, as for
# fleet.sh) and drives its balancer for M minutes (default 10) at about R requests a second (default 150) with wrk:
#   75 %  results already made (20 widths of photo.jpg): served from memory;
#   20 %  a new result each time (photo.jpg in a fit box never asked for before, 600–1099 wide, JPEG quality 95,
#         ~80 KB): decoded, processed and encoded, the source from the memory tier, the result stored in memory, on
#         disk and in Redis;
#    5 %  a new source each time (a 32×32 PNG with a new query parameter): downloaded from the origin, stored, decoded.
# The new results are large enough to fill the instances' bounded memory tiers (results 128 MB, decoded images
# 256 MB) within the warm-up at this rate, so that what RSS does after it is not the caches filling up.
# Every 10 s it samples each instance's RSS (VmRSS of /proc/PID/status) and open descriptors (/proc/PID/fd). At the
# end it prints, per instance: the RSS slope after the first M minutes of warm-up (default 3; MB per minute, least
# squares), the descriptor count at the end of the warm-up and at the end, its requests and 5xx (from /metrics),
# the bytes in its result cache, and what wrk saw. Exits 1 on any 5xx or failed request, or descriptors grown by
# more than the load's connections; the fleet goes down on every exit.
#
# The rate: Debian's wrk has no -R, so the load is closed-loop: 4 connections, each waiting 4000/R ms (wrk's delay()
# hook) before its next request. A slower server gets fewer requests instead of a growing backlog, so the rate
# reached is printed with the results. Samples are in DIR/samples.tsv, wrk's report in DIR/wrk.txt.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
minutes=10
rate=150
instances=2
warmup=3
dir=/tmp/nuke-soak
connections=4
interval=10

usage() {
    sed -n '5p' "${BASH_SOURCE[0]}" | sed 's/^#   //' >&2
    exit 64
}

whole() {
    case "$2" in ''|*[!0-9]*) echo "soak.sh: $1 needs a whole number, got '$2'" >&2; exit 64 ;; esac
}

while [ $# -gt 0 ]; do
    case "$1" in
        --minutes) minutes="${2:?--minutes needs a number}"; whole --minutes "$minutes"; shift 2 ;;
        --rate) rate="${2:?--rate needs a number}"; whole --rate "$rate"; shift 2 ;;
        --instances) instances="${2:?--instances needs a number}"; whole --instances "$instances"; shift 2 ;;
        --warmup) warmup="${2:?--warmup needs a number}"; whole --warmup "$warmup"; shift 2 ;;
        --dir) dir="${2:?--dir needs a directory}"; shift 2 ;;
        -h|--help) usage ;;
        *) echo "soak.sh: unknown argument '$1'" >&2; usage ;;
    esac
done
[ "$minutes" -ge 1 ] && [ "$rate" -ge 1 ] || { echo "soak.sh: --minutes and --rate need at least 1" >&2; exit 64; }
# At least a minute: the descriptors are compared from a sample under load (an idle instance has no connections yet).
[ "$warmup" -ge 1 ] && [ "$warmup" -lt "$minutes" ] ||
    { echo "soak.sh: --warmup needs at least 1 and less than --minutes" >&2; exit 64; }
for tool in wrk python3 curl; do
    command -v "$tool" >/dev/null || { echo "soak.sh: $tool is not installed (scripts/setup.sh --benchmarks)" >&2; exit 1; }
done

fleet() {
    "$repo/scripts/fleet.sh" "$@" --dir "$dir/fleet"
}

sampler=""
load=""
finish() {
    if [ -n "$load" ]; then kill "$load" 2>/dev/null || true; fi
    if [ -n "$sampler" ]; then
        touch "$dir/stop"
        wait "$sampler" 2>/dev/null || true
    fi
    if [ -f "$dir/fleet/processes" ]; then fleet down >/dev/null 2>&1 || true; fi
}
trap finish EXIT
trap 'exit 130' INT TERM

rm -rf "$dir"
mkdir -p "$dir"
balancer="$(fleet up --instances "$instances" | tail -1)"
origin="http://127.0.0.1:$(fleet status | awk '$1 == "origin" { print $3 }')"
# The new sources' image, in the origin's root (nginx ignores the query that makes each request a new source).
python3 - "$dir/fleet/origin/html/tiny.png" <<'EOF'
import struct, sys, zlib
rows = b"".join(b"\0" + b"".join(bytes((x * 8, y * 8, 128)) for x in range(32)) for y in range(32))
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 32, 32, 8, 2, 0, 0, 0))
open(sys.argv[1], "wb").write(png + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
EOF
echo "soak: fleet of $instances at $balancer, $minutes min at about $rate requests/s" >&2

# One line per instance and sample: seconds since the start, instance, PID, VmRSS (kB), descriptors.
sample() {
    local now="$1" index=0 role pid port rss fds
    while read -r role pid port; do
        [ "$role" = serve ] || continue
        index=$((index + 1))
        rss="$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0)"
        fds="$(find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)"
        printf '%s\t%s\t%s\t%s\t%s\n' "$now" "$index" "$pid" "${rss:-0}" "$fds"
    done < <(fleet status 2>/dev/null || true)
}

start="$(date +%s)"
printf 'seconds\tinstance\tpid\trss_kb\tfds\n' >"$dir/samples.tsv"
(
    while [ ! -e "$dir/stop" ]; do
        sample "$(($(date +%s) - start))" >>"$dir/samples.tsv"
        for _ in $(seq "$interval"); do
            [ -e "$dir/stop" ] && break
            sleep 1
        done
    done
) &
sampler=$!

# The requests (one Lua state per wrk thread): each thread numbers its own, so new results never repeat.
cat >"$dir/mix.lua" <<'EOF'
local origin = os.getenv("SOAK_ORIGIN")
local pause = tonumber(os.getenv("SOAK_DELAY_MS"))
local threads = {}

function setup(thread)
    table.insert(threads, thread)
    thread:set("id", #threads)
end

function init(args)
    math.randomseed(id * 7919 + os.time())
    count = 0
    statuses = {}
end

function delay()
    return pause
end

function request()
    count = count + 1
    local draw = math.random(100)
    local path
    if draw <= 75 then
        path = "/unsafe/w:" .. (100 + 40 * (draw % 20)) .. "/plain/" .. origin .. "/photo.jpg"
    elseif draw <= 95 then
        local n = count * 16 + id
        path = "/unsafe/rs:fit:" .. (600 + n % 500) .. ":" .. (450 + math.floor(n / 500) % 500) .. "/q:95/plain/"
            .. origin .. "/photo.jpg"
    else
        path = "/unsafe/w:24/plain/" .. origin .. "/tiny.png%3Fv%3D" .. id .. "-" .. count
    end
    return wrk.format("GET", path)
end

function response(status, headers, body)
    statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
    local totals = {}
    for _, thread in ipairs(threads) do
        for status, n in pairs(thread:get("statuses")) do totals[status] = (totals[status] or 0) + n end
    end
    local line = "statuses"
    for status, n in pairs(totals) do line = line .. " " .. status .. "=" .. n end
    io.write(line .. "\n")
    local errors = summary.errors
    io.write(string.format("socket_errors connect=%d read=%d write=%d timeout=%d status=%d\n", errors.connect,
        errors.read, errors.write, errors.timeout, errors.status))
    io.write(string.format("requests %d seconds %.1f\n", summary.requests, summary.duration / 1e6))
end
EOF
# In the background, so that a signal to this script runs its trap at once (bash defers traps while it waits for a
# foreground command) and the trap stops wrk too.
SOAK_ORIGIN="$origin" SOAK_DELAY_MS="$((connections * 1000 / rate))" \
    wrk -t 2 -c "$connections" -d "${minutes}m" --timeout 30s -s "$dir/mix.lua" "$balancer" >"$dir/wrk.txt" 2>&1 &
load=$!
wait "$load" || { echo "soak: wrk failed: $(tail -3 "$dir/wrk.txt")" >&2; exit 1; }
load=""

touch "$dir/stop"
wait "$sampler" || true
sampler=""
sample "$(($(date +%s) - start))" >>"$dir/samples.tsv"

# Each instance's requests by status and the bytes in its result cache, from its /metrics.
: >"$dir/metrics.tsv"
index=0
while read -r role pid port; do
    [ "$role" = serve ] || continue
    index=$((index + 1))
    curl -s --max-time 10 "http://127.0.0.1:$port/metrics" |
        sed -n -e "s/^nuke_serve_requests_total{status=\"\([0-9]*\)\"} \([0-9.]*\)$/$index\t\1\t\2/p" \
            -e "s/^nuke_serve_result_cache_bytes \([0-9.]*\)$/$index\tcache\t\1/p" >>"$dir/metrics.tsv"
done < <(fleet status)

python3 - "$dir" "$warmup" "$connections" <<'EOF'
import collections, sys

directory, warmup, connections = sys.argv[1], int(sys.argv[2]) * 60, int(sys.argv[3])
samples = collections.defaultdict(list)
with open(f"{directory}/samples.tsv") as file:
    next(file)
    for line in file:
        seconds, instance, pid, rss, fds = line.split()
        samples[int(instance)].append((int(seconds), int(pid), int(rss) / 1024, int(fds)))
requests = collections.defaultdict(lambda: [0, 0])
cached = collections.defaultdict(int)
with open(f"{directory}/metrics.tsv") as file:
    for line in file:
        instance, status, count = line.split()
        if status == "cache":
            cached[int(instance)] = int(float(count))
            continue
        requests[int(instance)][0] += int(float(count))
        if status.startswith("5"):
            requests[int(instance)][1] += int(float(count))

def slope(points):
    """Least-squares slope of (minutes, MB)."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    variance = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / variance if variance else 0.0

failed = False
print(f"{'instance':<9}{'pid':>8}{'RSS MB (warm → end, max)':>28}{'slope MB/min':>14}{'fds warm→end':>14}"
      f"{'requests':>10}{'5xx':>6}{'results MB':>12}")
for instance in sorted(samples):
    rows = samples[instance]
    warm = [row for row in rows if row[0] >= warmup] or rows[-1:]
    pids = {row[1] for row in rows}
    rate = slope([(row[0] / 60, row[2]) for row in warm]) if len(warm) > 2 else float("nan")
    total, errors = requests[instance]
    grown = warm[-1][3] - warm[0][3]
    print(f"{instance:<9}{'/'.join(map(str, sorted(pids))):>8}"
          f"{f'{warm[0][2]:.1f} → {warm[-1][2]:.1f}, {max(row[2] for row in rows):.1f}':>28}{rate:>+14.2f}"
          f"{f'{warm[0][3]} → {warm[-1][3]}':>14}{total:>10}{errors:>6}{cached[instance] / 1048576:>12.1f}")
    if len(pids) > 1:
        print(f"soak: instance {instance} was restarted (PIDs {sorted(pids)})", file=sys.stderr)
        failed = True
    if errors:
        print(f"soak: instance {instance} answered {errors} 5xx", file=sys.stderr)
        failed = True
    if grown > connections:
        print(f"soak: instance {instance}'s descriptors grew by {grown}", file=sys.stderr)
        failed = True

report = dict(line.split(" ", 1) for line in open(f"{directory}/wrk.txt").read().splitlines()
              if line.split(" ", 1)[0] in ("statuses", "socket_errors", "requests"))
print(f"wrk: {report.get('requests', '?')}; {report.get('statuses', '?')}; socket errors: "
      f"{report.get('socket_errors', '?')}")
fields = report.get("requests", "0 seconds 1").split()
print(f"rate: {int(fields[0]) / float(fields[2]):.0f} requests/s")
statuses = dict(item.split("=") for item in report.get("statuses", "").split())
bad = sum(int(n) for status, n in statuses.items() if not status.startswith("2"))
socket = sum(int(item.split("=")[1]) for item in report.get("socket_errors", "").split())
if bad or socket:
    print(f"soak: the client saw {bad} responses other than 2xx and {socket} socket errors", file=sys.stderr)
    failed = True
sys.exit(1 if failed else 0)
EOF
