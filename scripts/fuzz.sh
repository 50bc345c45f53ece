#!/usr/bin/env bash
# Builds the fuzz targets (Fuzz/, libFuzzer + AddressSanitizer) and runs one or all of them, one at a time.
#
#   scripts/fuzz.sh [TARGET|all|list] [SECONDS]      (default: all, 60 seconds per target)
#
# Each target starts from its seeds (Fuzz/corpus/TARGET, read only) plus what earlier runs found
# (Fuzz/.build/corpus/TARGET), with its dictionary (Fuzz/dictionaries/TARGET.dict) if there is one. Crashes,
# hangs and out-of-memory inputs go to Fuzz/crashes/TARGET/; libFuzzer's log to Fuzz/.build/logs/TARGET.log.
# One summary line per target: executions, coverage (edges and features), corpus size, crashes.
# The exit status is 1 if any target found something.
#
# FUZZ_MAX_RUNS=N also stops a target after N executions (whichever of the two limits comes first).
# FUZZ_OPTIONS="-malloc_limit_mb=512 …" adds libFuzzer flags (that one reports the stack of any larger allocation).
# FUZZ_JOBS is not supported on purpose: targets run one at a time, on one core.
set -euo pipefail
cd "$(dirname "$0")/.."

selection=${1:-all}
seconds=${2:-60}

# Every module, the root package's too, is compiled with coverage and AddressSanitizer, so the fuzzer sees (and
# ASan checks) our parsers, the codec plugins' Swift code and the C shims. SwiftPM's --sanitize=fuzzer links
# libFuzzer's main; -sanitize=fuzzer,address comes after it on every swiftc line and wins (swiftc keeps the last
# -sanitize=, so `--sanitize=fuzzer --sanitize=address` would silently build without ASan in Swift code).
# Release: the pixel loops are ~50x slower in debug builds.
build=(swift build --package-path Fuzz -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address
    -Xcc -fsanitize=address)
echo "building: ${build[*]}" >&2
"${build[@]}" >&2
binary="$("${build[@]}" --show-bin-path)/nuke-fuzz"

export SWIFT_BACKTRACE=enable=no # let ASan, not Swift's backtracer, report a crash
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=0}

if [ "$selection" = "list" ]; then
    NUKE_FUZZ_TARGET=list "$binary"
    exit 0
fi
if [ "$selection" = "all" ]; then
    mapfile -t targets < <(NUKE_FUZZ_TARGET=list "$binary")
else
    targets=("$selection")
fi

status=0
for target in "${targets[@]}"; do
    work=Fuzz/.build/corpus/$target
    crashes=Fuzz/crashes/$target
    log=Fuzz/.build/logs/$target.log
    mkdir -p "$work" "$crashes" "$(dirname "$log")"
    seeds=()
    [ -d "Fuzz/corpus/$target" ] && seeds=("Fuzz/corpus/$target")
    options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1
        -artifact_prefix="$crashes/" -close_fd_mask=1)
    [ -f "Fuzz/dictionaries/$target.dict" ] && options+=(-dict="Fuzz/dictionaries/$target.dict")
    [ -n "${FUZZ_MAX_RUNS:-}" ] && options+=(-runs="$FUZZ_MAX_RUNS")
    # shellcheck disable=SC2206 # FUZZ_OPTIONS is a list of libFuzzer flags, split on spaces on purpose
    [ -n "${FUZZ_OPTIONS:-}" ] && options+=(${FUZZ_OPTIONS})
    before=$(find "$crashes" -type f | wc -l)
    start=$(date +%s)
    NUKE_FUZZ_TARGET=$target "$binary" "${options[@]}" "$work" "${seeds[@]}" >"$log" 2>&1 || true
    elapsed=$(($(date +%s) - start))
    found=$(($(find "$crashes" -type f | wc -l) - before))
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    coverage=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -1 || true)
    if [ -z "$executions" ]; then # killed before its final stats: a crash, or a failure to start
        executions=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
    fi
    printf '%-14s %5ss  execs %-10s %-32s crashes %s\n' "$target" "$elapsed" "${executions:-?}" \
        "${coverage:-cov: ?}" "$found"
    if [ "$found" -gt 0 ] || grep -q "ERROR: libFuzzer\|ERROR: AddressSanitizer\|Fatal error" "$log"; then
        echo "  $target: see $log and $crashes/" >&2
        status=1
    fi
done
exit $status
