import RillExt
import RillTestSupport
import Testing

// The example of Moving from CombineExt's "Spelling an empty maybe", as the article writes it.

private func nickname() -> AnyMaybePublisher<String, Never> {
  return .empty()  // or Empty().eraseToAnyMaybePublisher()
}

private func pickNickname() -> TraitPublishers.Maybe<String, Never> {
  TraitPublishers.Maybe { promise in
    promise(.finished)
    return AnyCancellable {}
  }
}

@Suite struct EmptyMaybeSpellingTests {
  @Test func theEmptyMaybeSpellingsFinishWithoutAValue() {
    var printed: [String] = []
    let print = { printed.append($0) }
    let cancellable = nickname().sinkMaybe { result in
      switch result {
      case .finished: print("no nickname")
      case .success(let name): print(name)
      }
    }
    let other = pickNickname().sinkMaybe { result in
      if case .finished = result { print("picked none") }
    }
    expectEqual(printed, ["no nickname", "picked none"])
    cancellable.cancel()
    other.cancel()
  }
}
