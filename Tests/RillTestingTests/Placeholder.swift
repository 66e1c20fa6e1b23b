import Testing

@Suite struct RillTestingTestsPlaceholder {
  @Test func builds() {}
}
