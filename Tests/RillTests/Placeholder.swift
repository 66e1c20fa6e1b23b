import Testing

@Suite struct RillTestsPlaceholder {
  @Test func builds() {}
}
