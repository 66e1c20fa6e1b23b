#!/usr/bin/env bash
# Builds each module's DocC catalog with `docc convert` and fails on any warning.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/docs}
rm -rf "$out"
mkdir -p "$out"
graphs=$(swift package dump-symbol-graph 2>/dev/null | sed -n 's/^Files written to //p' | tail -1)
[ -d "$graphs" ] || { echo "docs: no symbol graphs" >&2; exit 1; }
status=0
for catalog in Sources/*/*.docc; do
  module=$(basename "$(dirname "$catalog")")
  moduleGraphs="$out/graphs-$module"
  mkdir -p "$moduleGraphs"
  cp "$graphs/$module".symbols.json "$graphs/$module"@*.symbols.json "$moduleGraphs/" 2>/dev/null || true
  log=$(docc convert "$catalog" --additional-symbol-graph-dir "$moduleGraphs" \
    --output-path "$out/$module.doccarchive" --fallback-display-name "$module" \
    --fallback-bundle-identifier "rill.$module" 2>&1 || true)
  if grep -E "warning|error" <<<"$log"; then
    echo "docs: $module has warnings" >&2
    status=1
  else
    echo "docs: $module ok"
  fi
done
exit $status
