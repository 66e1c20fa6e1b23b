import Rill

/// Prints a pipeline's events in a readable form, one line each, prefixed with the subscriber's name.
func log<P: Publisher>(_ name: String, _ publisher: P) -> AnyCancellable {
  publisher.sink(
    receiveCompletion: { completion in
      switch completion {
      case .finished: print("  \(name): finished")
      case .failure(let error): print("  \(name): failed with \(error)")
      }
    },
    receiveValue: { print("  \(name): value \($0)") }
  )
}
