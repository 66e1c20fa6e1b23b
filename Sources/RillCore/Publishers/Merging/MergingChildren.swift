/// Names one child of a `flatMap` or `merge` subscription: its slot in ``MergingChildren`` and its id.
@usableFromInline
struct MergingChildKey: Equatable, Sendable {
  @usableFromInline let slot: Int
  @usableFromInline let id: Int

  @inlinable
  init(slot: Int, id: Int) {
    self.slot = slot
    self.id = id
  }
}

/// The children of a `flatMap` or `merge` subscription, in an array of slots with a free list: a child's key names
/// its slot, and its `id` (given in subscription order) tells it apart from a later child in the same slot, so no
/// event needs hashing.
@usableFromInline
struct MergingChildren {
  /// One slot: a child, with its subscription once it arrives, or a free slot linked to the next free one.
  ///
  /// A struct whose fields are read in place, where an enum with the subscription as a payload is copied, with its
  /// existential, each time its phase is read; `isSubscribed` answers for `subscription` for the same reason.
  @usableFromInline
  struct Slot {
    /// The child's id, or -1 when the slot is free.
    @usableFromInline var id: Int
    /// The next free slot while the slot is free, or -1.
    @usableFromInline var nextFree = -1
    /// Whether `subscription` holds the child's subscription.
    @usableFromInline var isSubscribed = false
    /// The child's subscription, once it has arrived.
    @usableFromInline var subscription = MergingHeldSubscription.nothing

    @inlinable
    init(id: Int) {
      self.id = id
    }
  }

  @usableFromInline var slots: [Slot] = []
  /// The first free slot, or -1.
  @usableFromInline var freeSlot = -1
  /// How many children are registered and have not completed.
  @usableFromInline var count = 0
  /// The id of the next child.
  @usableFromInline var nextID = 0

  @inlinable
  init() {}

  /// The children of a merge: `count` of them, child `i` in slot `i` with id `i`.
  @inlinable
  init(count: Int) {
    slots = (0..<count).map { Slot(id: $0) }
    self.count = count
    nextID = count
  }

  /// Whether no child is live.
  @inlinable
  var isEmpty: Bool { count == 0 }

  /// Registers a new child; returns its key.
  @inlinable
  mutating func add() -> MergingChildKey {
    let id = nextID
    nextID += 1
    count += 1
    guard freeSlot >= 0 else {
      slots.append(Slot(id: id))
      return MergingChildKey(slot: slots.count - 1, id: id)
    }
    let slot = freeSlot
    freeSlot = slots[slot].nextFree
    slots[slot].id = id
    return MergingChildKey(slot: slot, id: id)
  }

  /// Whether `child` is registered and has not completed.
  @inlinable
  func isLive(_ child: MergingChildKey) -> Bool {
    child.slot < slots.count && slots[child.slot].id == child.id
  }

  /// Keeps the subscription of a live child that has none; returns `false` otherwise, for the caller to cancel it.
  @inlinable
  mutating func subscribed(_ child: MergingChildKey, _ subscription: any Subscription) -> Bool {
    guard isLive(child), !slots[child.slot].isSubscribed else { return false }
    slots[child.slot].isSubscribed = true
    slots[child.slot].subscription = .held(subscription)
    return true
  }

  /// The subscription of `child`, if it is live and subscribed.
  @inlinable
  func subscription(of child: MergingChildKey) -> (any Subscription)? {
    guard isLive(child), slots[child.slot].isSubscribed else { return nil }
    return slots[child.slot].subscription.subscription
  }

  /// Frees a live child's slot, unless the child has gone.
  ///
  /// Returns its subscription, for the caller to release after unlocking.
  @inlinable
  mutating func release(_ child: MergingChildKey) -> MergingHeldSubscription {
    guard isLive(child) else { return .nothing }
    slots[child.slot].id = -1
    slots[child.slot].nextFree = freeSlot
    freeSlot = child.slot
    count -= 1
    // Only a subscribed child holds a subscription: one that never subscribed skips the move.
    guard slots[child.slot].isSubscribed else { return .nothing }
    slots[child.slot].isSubscribed = false
    return slots[child.slot].subscription.take()
  }

  /// The keys of the live children that hold a subscription, oldest child first.
  @inlinable
  func subscribedKeys() -> [MergingChildKey] {
    let subscribed = slots.indices.filter { slots[$0].id >= 0 && slots[$0].isSubscribed }
    return subscribed.sorted { slots[$0].id < slots[$1].id }.map { MergingChildKey(slot: $0, id: slots[$0].id) }
  }

  /// The subscriptions of the live children, oldest child first, leaving out the child with id `except`.
  @inlinable
  func subscriptions(except excluded: Int?) -> [any Subscription] {
    subscribedKeys().filter { $0.id != excluded }.compactMap { subscription(of: $0) }
  }

  /// Forgets every child; returns their slots, with the subscriptions they hold, for the caller to release after
  /// unlocking.
  @inlinable
  mutating func removeAll() -> [Slot] {
    freeSlot = -1
    count = 0
    var released: [Slot] = []
    swap(&slots, &released)
    return released
  }
}
