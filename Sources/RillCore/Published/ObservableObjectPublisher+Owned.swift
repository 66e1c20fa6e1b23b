extension ObservableObjectPublisher {
  /// The publisher of each object without `@Published` properties that has asked for one, held beside the object
  /// rather than in it: a weak reference tells whether the object that asked is still the one at its address.
  private struct Owned {
    weak var object: AnyObject?
    let publisher: ObservableObjectPublisher
  }

  private struct OwnedTable {
    var entries: [ObjectIdentifier: Owned] = [:]
    /// The entry count above which the next insertion first drops the entries of freed objects.
    var sweepThreshold = 64
  }

  // SAFETY: all mutable state is in `table`.
  private final class OwnedPublishers: @unchecked Sendable {
    let table = Locked(OwnedTable())
  }

  private static let owned = OwnedPublishers()

  /// Returns the publisher of `object`, made on its first call, the same for as long as the object lives.
  ///
  /// The object is not kept alive: the table holds it weakly. A freed object's entry stays until the table next
  /// sweeps, which it does when it has doubled since the last sweep, so it never holds more than about twice the
  /// live objects' entries; a new object at a freed object's address gets a new publisher.
  static func ownPublisher(of object: AnyObject) -> ObservableObjectPublisher {
    let key = ObjectIdentifier(object)
    let (publisher, dropped) = owned.table.withLock { table -> (ObservableObjectPublisher, [Owned]) in
      if let entry = table.entries[key], entry.object === object { return (entry.publisher, []) }
      var dropped: [Owned] = []
      if let stale = table.entries[key] { dropped.append(stale) }
      if table.entries.count >= table.sweepThreshold {
        let freed = table.entries.filter { $0.value.object == nil }
        for (freedKey, entry) in freed {
          table.entries[freedKey] = nil
          dropped.append(entry)
        }
        table.sweepThreshold = Swift.max(64, 2 * table.entries.count)
      }
      let made = ObservableObjectPublisher()
      table.entries[key] = Owned(object: object, publisher: made)
      return (made, dropped)
    }
    // The publishers of freed objects are released here, outside the lock: releasing one may free its subscribers.
    _ = dropped
    return publisher
  }
}
