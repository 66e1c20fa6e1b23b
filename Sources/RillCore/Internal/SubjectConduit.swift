public import Synchronization

/// A subscriber's subscription to a subject: the slot of its entry in the subject's table, and the entry's `id`.
///
/// It holds nothing mutable but the demand left when it ended, which its mirror shows, as Combine's does. Calls
/// on a subscription that has ended find another `id`, or a free slot, and do nothing.
@usableFromInline
final class SubjectConduit<Output, Failure: Error>: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, Sendable
{
  @usableFromInline
  let core: SubjectCore<Output, Failure>

  @usableFromInline
  let slot: Int

  @usableFromInline
  let id: UInt64

  /// The demand left when the subscription ended, as `Subscribers.Demand.rawValue`; written under the subject's
  /// lock as the entry leaves the table.
  @usableFromInline
  let demandAtEnd = Atomic<UInt>(0)

  /// Runs `request` and `cancel` in code specialised for the subject's types.
  ///
  /// The subscriber reaches this class through `any Subscription`, which lands in its unspecialised generic
  /// implementation; these closures capture nothing and are made where the types are known (in client code that
  /// inlines the subject's `receive(subscriber:)`), so the work behind the lock does not look up generic metadata
  /// at run time.
  @usableFromInline
  let requestThunk: @Sendable (SubjectConduit, Subscribers.Demand) -> Void

  @usableFromInline
  let cancelThunk: @Sendable (SubjectConduit) -> Void

  @inlinable
  init(core: SubjectCore<Output, Failure>, slot: Int, id: UInt64) {
    self.core = core
    self.slot = slot
    self.id = id
    requestThunk = { conduit, demand in conduit.core.request(demand, slot: conduit.slot, id: conduit.id) }
    cancelThunk = { conduit in conduit.core.cancel(slot: conduit.slot, id: conduit.id) }
  }

  /// Records the demand left as the subscription's entry leaves the subject's table, under the subject's lock.
  @inlinable
  func recordEnd(demand: Subscribers.Demand) {
    demandAtEnd.store(demand.rawValue, ordering: .relaxed)
  }

  @usableFromInline
  var description: String { core.name }

  /// As in Combine: the subject twice (as `parent` and `subject`), the subscriber and the demand left; the subject
  /// and the subscriber are `nil` once the subscription has ended.
  @usableFromInline
  var customMirror: Mirror {
    let (isLive, downstream, demand) = core.state.withLock { state -> (Bool, Any?, Subscribers.Demand) in
      guard state.holds(slot: slot, id: id) else {
        return (false, nil, Subscribers.Demand(rawValue: demandAtEnd.load(ordering: .relaxed)))
      }
      let link = state.links[slot]
      return (link.phase != .cancelledWhileBusy, state.records[slot]?.downstream, link.demand)
    }
    let subject = isLive ? core.subject : nil
    return Mirror(
      self,
      children: [
        "parent": subject as Any, "downstream": downstream as Any, "demand": demand, "subject": subject as Any,
      ]
    )
  }

  @usableFromInline
  var playgroundDescription: Any { description }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "\(core.name): a subscriber requested \(demand); demand must be greater than zero")
    requestThunk(self, demand)
  }

  @inlinable
  func cancel() {
    cancelThunk(self)
  }
}
