#!/usr/bin/env bash
# Type-checks each file of Tests/RillExtCompileFailures and Tests/RillCompileFailures against the built modules and
# expects it to fail with the error its `// expected-error:` line names: proof that the trait conformances refuse
# publishers that can break a trait's promise, and that values which can hold something unsafe to share are not
# `Sendable`. Builds RillExt (and so Rill and RillCore) first (debug); pass --skip-build when it is built already.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" != "--skip-build" ]]; then
  swift build --target RillExt
fi
bin="$(swift build --show-bin-path)"
modules="$bin/Modules"
# The C modules of dependencies (swift-atomics' _AtomicsShims), which the Swift modules above import: SwiftPM passes
# their module maps to its own compiles; a plain swiftc needs them named.
module_maps=()
for map in "$bin"/../../checkouts/*/Sources/*/include/module.modulemap; do
  [[ -e "$map" ]] && module_maps+=(-Xcc "-fmodule-map-file=$map")
done

status=0
for file in Tests/RillExtCompileFailures/*.swift Tests/RillCompileFailures/*.swift; do
  expected="$(sed -n 's|^// expected-error: ||p' "$file")"
  if [[ -z "$expected" ]]; then
    echo "FAIL $file: no '// expected-error:' line"
    status=1
    continue
  fi
  if output="$(swiftc -typecheck -swift-version 6 -I "$modules" "${module_maps[@]}" "$file" 2>&1)"; then
    echo "FAIL $file: type-checked, but it must not"
    status=1
  elif [[ "$(grep -c "^[^ ].*: error: " <<<"$output")" != 1 ]]; then
    echo "FAIL $file: expected exactly one error"
    echo "$output" | grep "^[^ ].*: error: " | sed 's/^/     /'
    status=1
  elif grep -qF -- "$expected" <<<"$output"; then
    echo "ok   $file"
  else
    echo "FAIL $file: did not report: $expected"
    echo "$output" | grep "error:" | sed 's/^/     /'
    status=1
  fi
done
exit "$status"
