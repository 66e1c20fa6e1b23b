import Testing

extension Tag {
  /// Tests that hammer an operator from several threads; also run them under `--sanitize=thread`.
  @Tag static var stress: Self
}
