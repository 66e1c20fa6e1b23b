#!/usr/bin/env bash
# Builds the DocC documentation of the libraries as one combined archive, fails on any warning, and checks
# that the archive has the pages a user looks for first (Publisher and its operators).
#
# The archive lands in .build/plugins/Swift-DocC/outputs/Rill.doccarchive, laid out for static hosting. To read
# it in a browser:
#   python3 -m http.server --directory .build/plugins/Swift-DocC/outputs/Rill.doccarchive 8080
# then open http://localhost:8080/documentation/rill.
set -euo pipefail
cd "$(dirname "$0")/.."
# The timeline picture in RillExt's docs must be the one the demo draws today.
./scripts/timeline-image.sh --check
RILL_DOCS=1 swift package generate-documentation --enable-experimental-combined-documentation --warnings-as-errors \
  --target Rill --target RillCore --target RillFoundation --target RillExt --target RillTesting

archive=.build/plugins/Swift-DocC/outputs/Rill.doccarchive
for page in \
  rill.json \
  rillcore.json rillfoundation.json rillext.json rilltesting.json \
  rillcore/publisher.json \
  "rillcore/publisher/debounce(for:scheduler:options:).json" \
  rillcore/passthroughsubject.json; do
  if [ ! -f "$archive/data/documentation/$page" ]; then
    echo "build-docs: the archive has no page documentation/$page" >&2
    exit 1
  fi
done
echo "build-docs: $archive has the pages of Rill, RillCore, RillFoundation, RillExt and RillTesting"
