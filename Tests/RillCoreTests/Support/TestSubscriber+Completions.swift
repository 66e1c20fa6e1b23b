import RillCore
import RillTesting

extension TestSubscriber {
  /// Every completion received, in order; more than one means the publisher broke the contract.
  var completions: [Subscribers.Completion<Failure>] {
    events.compactMap { event in
      if case .completion(let completion) = event { return completion }
      return nil
    }
  }
}
