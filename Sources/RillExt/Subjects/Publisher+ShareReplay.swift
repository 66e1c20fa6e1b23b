extension Publisher {
  /// Shares one subscription to this publisher among its subscribers, replaying up to `count` of the latest values
  /// to each one that comes later.
  ///
  /// ```
  /// upstream:                           -1-2-3-----4-|
  /// share(replay: 2), first subscriber: -1-2-3-----4-|
  /// second subscriber, at tick 5:       -----[23]--4-|
  /// ```
  ///
  /// The first subscriber connects this publisher to one ``ReplaySubject``, which requests unlimited values; each
  /// subscriber takes from the subject as far as its own demand. When every subscriber has cancelled, the
  /// subscription to this publisher is cancelled; the next subscriber connects again, to the same subject, so it
  /// first gets the values the subject kept. A completion is kept and replayed to every later subscriber, after the
  /// values.
  ///
  /// - Parameter count: The number of latest values to replay to each new subscriber.
  /// - Returns: A publisher that shares this one and replays its latest values.
  @inlinable
  public func share(
    replay count: Int
  ) -> Publishers.Autoconnect<Publishers.Multicast<Self, ReplaySubject<Output, Failure>>> {
    multicast { ReplaySubject(bufferSize: count) }.autoconnect()
  }
}
