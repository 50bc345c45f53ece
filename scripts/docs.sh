#!/usr/bin/env bash
# `scripts/docs.sh`: the API documentation of every library product, as static HTML in `.build/docs/<Target>/`,
# built with the toolchain's own `docc` (no SwiftPM plugin, nothing downloaded). Exits non-zero, with docc's
# warnings printed, if docc reports any warning (an unresolved ``symbol`` link, a parameter without documentation,
# a topic that names no symbol, …), so documentation that has gone out of date with the code fails CI.
#
# 1. One `swift build` in its own scratch directory (`.build/docs-build`, so it never replaces the debug build)
#    that also writes every Swift module's symbol graph, with extensions of other modules' types as extension
#    blocks (a codec's `ImageDecoders.PNG` extends NukeCore's `ImageDecoders`).
# 2. Per library target, its own graphs only: `<Target>.symbols.json` and `<Target>@<Extended>.symbols.json`,
#    never the graphs of the modules it depends on, which the same build writes beside them. C modules have no
#    Swift symbol graph, and every target imports its C module `internal`ly, so no C declaration reaches a graph;
#    a symbol in a language other than Swift fails the script. The umbrella `Nuke` re-exports NukeCore and the
#    default plugins (`@_exported import`), and the compiler writes them into its graph as part of its interface:
#    its documentation is thus the one reference of everything `import Nuke` gives, and the only catalog whose
#    articles can link NukeCore's and the plugins' symbols together (DocC links within one module's graph only).
# 3. `docc convert` per target: its catalog (`Sources/<Target>/<Target>.docc`) if it has one, else a landing page
#    that docc makes from the graph.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build/docs-build
graphs=$scratch/symbol-graphs
output=.build/docs
docc=$(dirname "$(readlink -f "$(command -v swift)")")/docc
[ -x "$docc" ] || docc=$(command -v docc)

# The library products' targets, in the order Package.swift lists them.
targets=$(swift package dump-package | python3 -c '
import json, sys
seen = []
for product in json.load(sys.stdin)["products"]:
    if "library" in product["type"]:
        seen += [t for t in product["targets"] if t not in seen]
print(" ".join(seen))')

echo "== symbol graphs ($scratch)"
mkdir -p "$graphs"
# A module that re-exports others has their declarations and doc comments in its own graph, but the build doesn't
# remake its module when only their doc comments change: its module file goes, so that its graph is always new.
bin=$(swift build --scratch-path "$scratch" --show-bin-path)
for target in $targets; do
    if grep -rqs --include='*.swift' '@_exported' "Sources/$target"; then
        rm -f "$bin/Modules/$target.swiftmodule" "$bin/Modules/$target.swiftdoc"
    fi
done
swift build --scratch-path "$scratch" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" \
    -Xswiftc -emit-extension-block-symbols

log=$(mktemp)
trap 'rm -f "$log"' EXIT
warnings=0
for target in $targets; do
    selected=$scratch/docs-input/$target
    rm -rf "$selected" "${output:?}/$target"
    mkdir -p "$selected" "$output"
    # The target's graph and its extension graphs written by the same compile (an extension graph more than a
    # minute older than the main graph is left over from a build whose extensions have since gone).
    python3 - "$graphs" "$target" "$selected" <<'PYTHON'
import json, os, shutil, sys
graphs, target, selected = sys.argv[1:]
main = os.path.join(graphs, f"{target}.symbols.json")
if not os.path.exists(main):
    sys.exit(f"docs.sh: no symbol graph for {target} in {graphs}")
written = os.path.getmtime(main)
for name in sorted(os.listdir(graphs)):
    path = os.path.join(graphs, name)
    if name != f"{target}.symbols.json":
        if not (name.startswith(f"{target}@") and name.endswith(".symbols.json")):
            continue
        if os.path.getmtime(path) < written - 60:
            continue
    for symbol in json.load(open(path))["symbols"]:
        language = symbol["identifier"]["interfaceLanguage"]
        if language != "swift":
            sys.exit(f"docs.sh: {name} has a {language} symbol: {symbol['identifier']['precise']}")
    shutil.copy(path, selected)
PYTHON
    catalog=()
    [ -d "Sources/$target/$target.docc" ] && catalog=("Sources/$target/$target.docc")
    echo "== $target"
    if ! "$docc" convert "${catalog[@]}" \
        --additional-symbol-graph-dir "$selected" \
        --fallback-display-name "$target" \
        --fallback-bundle-identifier "com.github.kean.nuke-linux.$target" \
        --transform-for-static-hosting \
        --hosting-base-path "$target" \
        --output-dir "$output/$target" >"$log" 2>&1; then
        cat "$log" >&2
        echo "docs.sh: docc failed for $target" >&2
        exit 1
    fi
    count=$(grep -cE "^(warning|error): " "$log" || true)
    if [ "$count" -gt 0 ]; then
        cat "$log" >&2
        warnings=$((warnings + count))
    fi
done

if [ "$warnings" -gt 0 ]; then
    echo "docs.sh: docc reported $warnings warning(s); fix them (see above)" >&2
    exit 1
fi
echo "== the documentation is in $PWD/$output/<Target>/"
echo "   static HTML for a web server: python3 -m http.server -d $output, then /<Target>/documentation/<target>/"
