import Testing

extension Tag {
  /// Tests that hammer a type from several threads; also run them under `--sanitize=thread`.
  @Tag static var stress: Self
}
