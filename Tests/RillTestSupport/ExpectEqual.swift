// `expectEqual(a, b)`: what `#expect(a == b)` checks, as a plain function call. The test targets hold thousands of
// equality expectations; each `#expect` expands into a generic call with closures and a captured expression that
// the compiler type-checks and compiles on its own, about 30 ms of build per expectation on the 2-core machine,
// against a few milliseconds for this call. A failure names both values and the caller's line.
public import RillCore
public import Testing

/// Records an issue at the caller's line unless `actual == expected`.
public func expectEqual<Value: Equatable>(
  _ actual: Value,
  _ expected: Value,
  _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  if actual != expected { recordInequality(actual, expected, comment, sourceLocation) }
}

/// Records an issue at the caller's line unless `actual == expected`, with `Subscribers.Demand`'s `==` for an `Int`.
public func expectEqual(
  _ actual: Subscribers.Demand,
  _ expected: Int,
  _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  if !(actual == expected) { recordInequality(actual, expected, comment, sourceLocation) }
}

/// Records an issue at the caller's line unless `actual == expected`, with `Subscribers.Demand`'s `==` for an `Int`.
public func expectEqual(
  _ actual: Int,
  _ expected: Subscribers.Demand,
  _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  if !(actual == expected) { recordInequality(actual, expected, comment, sourceLocation) }
}

private func recordInequality(
  _ actual: some Any,
  _ expected: some Any,
  _ comment: Comment?,
  _ sourceLocation: SourceLocation
) {
  let message = "Expectation failed: \(String(reflecting: actual)) == \(String(reflecting: expected))"
  Issue.record(
    Comment(rawValue: comment.map { "\(message): \($0.rawValue)" } ?? message),
    sourceLocation: sourceLocation
  )
}
