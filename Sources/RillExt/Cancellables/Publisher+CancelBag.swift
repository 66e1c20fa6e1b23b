extension Publisher {
  /// Subscribes with unlimited demand, and keeps the subscription in a bag until it completes or is cancelled.
  ///
  /// ```
  /// upstream:      -1-2-|
  /// receiveValue:  -1-2
  /// ```
  ///
  /// The returned cancellable is stored in `cancellables`, and taken out of it as soon as the subscription finishes,
  /// fails or is cancelled, so that a long-lived bag holds only live subscriptions. Cancelling the bag, or freeing
  /// it, cancels the subscription; cancelling the returned cancellable works as well.
  ///
  /// ```swift
  /// let cancellables = CancelBag()
  /// loadPublisher().sink(
  ///   in: cancellables,
  ///   receiveCompletion: { print($0) },
  ///   receiveValue: { print($0) })
  /// ```
  ///
  /// A publisher that completes during the subscription (such as `Just`) leaves its cancellable in the bag when this
  /// method returns, and takes it out on the main queue's next turn, as CombineTraits does: a program whose main
  /// queue never runs keeps it until the bag is cancelled or freed.
  ///
  /// - Parameters:
  ///   - cancellables: The bag that keeps the subscription alive.
  ///   - receiveCompletion: The closure to call on completion.
  ///   - receiveValue: The closure to call with each value.
  /// - Returns: The subscription's cancellable, also stored in `cancellables`.
  @discardableResult
  @inlinable
  public func sink(
    in cancellables: CancelBag,
    receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
    receiveValue: @escaping (Output) -> Void
  ) -> AnyCancellable {
    let key = cancellables.reserveKey()
    let cancellable =
      handleEvents(receiveCancel: { [weak cancellables] in cancellables?.release(key) })
      .sink(
        receiveCompletion: { [weak cancellables] completion in
          receiveCompletion(completion)
          cancellables?.release(key)
        },
        receiveValue: receiveValue
      )
    cancellables.fill(key, with: cancellable)
    return cancellable
  }
}

extension Publisher where Failure == Never {
  /// Subscribes with unlimited demand, and keeps the subscription in a bag until it completes or is cancelled.
  ///
  /// ```
  /// upstream:      -1-2-|
  /// receiveValue:  -1-2
  /// ```
  ///
  /// See ``RillCore/Publisher/sink(in:receiveCompletion:receiveValue:)``.
  ///
  /// - Parameters:
  ///   - cancellables: The bag that keeps the subscription alive.
  ///   - receiveValue: The closure to call with each value.
  /// - Returns: The subscription's cancellable, also stored in `cancellables`.
  @discardableResult
  @inlinable
  public func sink(in cancellables: CancelBag, receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
    sink(in: cancellables, receiveCompletion: { _ in }, receiveValue: receiveValue)
  }
}

extension SinglePublisher {
  /// Subscribes with unlimited demand, calls `receive` once with the outcome, and keeps the subscription in a bag
  /// until then.
  ///
  /// ```
  /// upstream:  --1--|          -----^
  /// receive:   --'success(1)'  -----'failure'
  /// ```
  ///
  /// The subscription leaves `cancellables` when it completes or is cancelled; cancelling or freeing the bag
  /// cancels it, and `receive` is then never called.
  ///
  /// - Parameters:
  ///   - cancellables: The bag that keeps the subscription alive.
  ///   - receive: The closure to call with the outcome.
  /// - Returns: The subscription's cancellable, also stored in `cancellables`.
  @discardableResult
  @inlinable
  public func sinkSingle(
    in cancellables: CancelBag,
    receive: @escaping (Result<Output, Failure>) -> Void
  ) -> AnyCancellable {
    sink(
      in: cancellables,
      receiveCompletion: { completion in
        if case .failure(let error) = completion { receive(.failure(error)) }
      },
      receiveValue: { value in receive(.success(value)) }
    )
  }
}

extension MaybePublisher {
  /// Subscribes with unlimited demand, calls `receive` once with the outcome, and keeps the subscription in a bag
  /// until then.
  ///
  /// ```
  /// upstream:  --1--|        -----|       -----^
  /// receive:   --'success(1)'  -'finished'  -'failure'
  /// ```
  ///
  /// The subscription leaves `cancellables` when it completes or is cancelled; cancelling or freeing the bag
  /// cancels it, and `receive` is then never called.
  ///
  /// - Parameters:
  ///   - cancellables: The bag that keeps the subscription alive.
  ///   - receive: The closure to call with the outcome.
  /// - Returns: The subscription's cancellable, also stored in `cancellables`.
  @discardableResult
  @inlinable
  public func sinkMaybe(
    in cancellables: CancelBag,
    receive: @escaping (MaybeResult<Output, Failure>) -> Void
  ) -> AnyCancellable {
    let valueReceived = Locked(false)
    return sink(
      in: cancellables,
      receiveCompletion: { completion in
        switch completion {
        case .failure(let error):
          receive(.failure(error))
        case .finished:
          if !valueReceived.withLock({ $0 }) { receive(.finished) }
        }
      },
      receiveValue: { value in
        valueReceived.withLock { $0 = true }
        receive(.success(value))
      }
    )
  }
}
