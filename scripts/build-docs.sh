#!/usr/bin/env bash
# Builds the DocC documentation of every library with the Swift-DocC plugin and fails on any warning.
# The archives land in .build/plugins/Swift-DocC/outputs/<Module>.doccarchive. To read the docs in a browser while
# you write them: swift package --disable-sandbox preview-documentation --target Rill
set -euo pipefail
cd "$(dirname "$0")/.."
swift package generate-documentation --warnings-as-errors \
  --target Rill --target RillCore --target RillExt --target RillTesting
