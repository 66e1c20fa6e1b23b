import Testing

@Suite struct RillExtTestsPlaceholder {
  @Test func builds() {}
}
