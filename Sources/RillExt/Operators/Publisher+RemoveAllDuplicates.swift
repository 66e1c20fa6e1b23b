extension Publisher where Output: Hashable {
  /// Publishes only the values that this publisher has not sent before, remembering all of them in a set.
  ///
  /// ```
  /// upstream:                -1-1-2-1-3-|
  /// removeAllDuplicates():   -1---2---3-|
  /// ```
  ///
  /// Unlike `removeDuplicates()`, which compares each value with the one before it, this compares it with every value
  /// published so far, which are all kept in memory. As in CombineExt, the memory belongs to the returned publisher:
  /// every subscription to it shares it, so a value one subscription has published is a duplicate for the others.
  ///
  /// - Returns: A publisher of the first occurrence of each value.
  @inlinable
  public func removeAllDuplicates() -> Publishers.Filter<Self> {
    // The values published so far, by hash value: the value's `hash(into:)` and `==` run outside the lock, on a copy
    // of the values with its hash.
    let seen = Locked([Int: [Output]]())
    return filter { value in
      let hash = value.hashValue
      let sameHash = seen.withLock { $0[hash] } ?? []
      guard !sameHash.contains(value) else { return false }
      seen.withLock { $0[hash, default: []].append(value) }
      return true
    }
  }
}

extension Publisher where Output: Equatable {
  /// Publishes only the values that this publisher has not sent before, remembering all of them in an array.
  ///
  /// ```
  /// upstream:                -1-1-2-1-3-|
  /// removeAllDuplicates():   -1---2---3-|
  /// ```
  ///
  /// See the `Hashable` form for how the memory is shared.
  ///
  /// - Returns: A publisher of the first occurrence of each value.
  @inlinable
  public func removeAllDuplicates() -> Publishers.Filter<Self> {
    removeAllDuplicates(by: ==)
  }
}

extension Publisher {
  /// Publishes only the values that no value published before matches, by a comparison closure.
  ///
  /// ```
  /// upstream:                                    -1-3-2-5-4-|
  /// removeAllDuplicates { $0 % 2 == $1 % 2 }:    -1---2-----|
  /// ```
  ///
  /// Each new value is compared, as the second argument, with every value published so far, which are all kept in
  /// memory; the value is dropped if any comparison returns `true`. See the `Hashable` form for how the memory is
  /// shared.
  ///
  /// - Parameter comparator: A closure that returns `true` when two values count as duplicates.
  /// - Returns: A publisher of the values that match none published before.
  @inlinable
  public func removeAllDuplicates(by comparator: @escaping (Output, Output) -> Bool) -> Publishers.Filter<Self> {
    let seen = Locked([Output]())
    return filter { value in
      // The comparator runs outside the lock, on a copy of what was published so far, let go of before appending.
      let isDuplicate = { () -> Bool in
        let published = seen.withLock { $0 }
        return published.contains { comparator($0, value) }
      }()
      guard !isDuplicate else { return false }
      seen.withLock { $0.append(value) }
      return true
    }
  }
}
