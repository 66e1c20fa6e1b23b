#!/usr/bin/env bash
# The picture in RillExt's "Seeing what your pipeline did" is drawn by Rill from a real run, never by hand: the demo
# records its search screen on a timeline (`rill-demo timeline DIR`, on a virtual clock, so every run draws the same
# picture) and this script puts the SVG in the documentation's resources.
#   scripts/timeline-image.sh           regenerates the committed picture
#   scripts/timeline-image.sh --check   fails if the committed picture differs from what the demo draws now
# build-docs.sh runs the check, so CI fails until a change that alters the picture commits the new one.
set -euo pipefail
cd "$(dirname "$0")/.."
committed=Sources/RillExt/RillExt.docc/Resources/search-timeline.svg
output=$(mktemp -d)
trap 'rm -rf "$output"' EXIT
swift build --product rill-demo >&2
"$(swift build --show-bin-path)/rill-demo" timeline "$output"
if [[ "${1:-}" == "--check" ]]; then
  if ! cmp -s "$output/search-timeline.svg" "$committed"; then
    echo "timeline-image: $committed differs from what rill-demo draws; run scripts/timeline-image.sh and commit it" >&2
    diff "$committed" "$output/search-timeline.svg" | head -20 >&2 || true
    exit 1
  fi
  echo "timeline-image: $committed is what rill-demo draws"
else
  mkdir -p "$(dirname "$committed")"
  cp "$output/search-timeline.svg" "$committed"
  echo "timeline-image: wrote $committed"
fi
