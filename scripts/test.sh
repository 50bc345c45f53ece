#!/usr/bin/env bash
# The whole test suite, as the README gives it: installs any missing Debian package (scripts/setup.sh), then runs
# `swift test` with at most NUKE_TEST_PARALLELISM test functions in flight (default 8). Arguments go on to
# `swift test` (for example `--filter CacheDiskTests`, or `--sanitize=address --scratch-path .build/asan`).
#
# Why the limit: Swift Testing otherwise starts all ~1,000 tests at once. On a 2-core machine every `await` of a
# test then queues behind the CPU work of all the others, which in a debug or sanitizer build adds up to minutes:
# longer than the real timeouts that the networking tests keep (a request's 60 s idle timeout, curl's 118 s limit
# on reusing an idle connection), so tests failed by waiting, not by being wrong. With the limit, the suite is also
# a little faster (less time switching between tests).
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${NUKE_TEST_PARALLELISM:-8}"
exec swift test "$@"
