#!/usr/bin/env bash
# Checks that a program built against RillFoundation alone links neither FoundationNetworking nor libcurl, with
# `ldd`, and that the check can fail: rill-demo, which imports Rill, must link both. Linux only (elsewhere URLSession
# is in Foundation and there is nothing to check).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(uname)" != Linux ]; then
  echo "check-no-networking: not Linux, nothing to check"
  exit 0
fi
swift build --product rill-foundation-example >/dev/null
swift build --product rill-demo >/dev/null
bin=$(swift build --show-bin-path)
networking='libcurl|libFoundationNetworking'
if ! ldd "$bin/rill-demo" | grep -qE "$networking"; then
  echo "check-no-networking: rill-demo (import Rill) links no FoundationNetworking: the check below proves nothing" >&2
  exit 1
fi
if ldd "$bin/rill-foundation-example" | grep -E "$networking"; then
  echo "check-no-networking: a program built against RillFoundation alone links the libraries above" >&2
  exit 1
fi
"$bin/rill-foundation-example"
echo "check-no-networking: rill-foundation-example links $(ldd "$bin/rill-foundation-example" | wc -l) shared" \
  "objects and no libcurl; rill-demo links $(ldd "$bin/rill-demo" | wc -l)"
