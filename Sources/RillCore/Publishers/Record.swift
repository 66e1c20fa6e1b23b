/// A publisher that allows for recording a series of inputs and a completion, for later playback to each
/// subscriber.
///
/// ```
/// Record(output: [1, 2], completion: .finished): [12|]
/// ```
public struct Record<Output, Failure: Error>: Publisher {
  /// The recorded output and completion.
  public let recording: Recording

  /// Creates a publisher to interactively record a series of outputs and a completion.
  public init(record: (inout Recording) -> Void) {
    var recording = Recording()
    record(&recording)
    self.init(recording: recording)
  }

  /// Creates a record publisher from an existing recording.
  public init(recording: Recording) {
    self.recording = recording
  }

  /// Creates a record publisher to publish the provided elements, followed by the provided completion value.
  public init(output: [Output], completion: Subscribers.Completion<Failure>) {
    self.init(recording: Recording(output: output, completion: completion))
  }

  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    SequenceSubscription<S, [Output]>.subscribe(
      subscriber,
      to: recording.output,
      completion: recording.completion,
      terminalName: "Cancelled Events",
      mirrorsCompletion: true
    )
  }

  /// A recorded sequence of outputs, followed by a completion value.
  public struct Recording {
    public typealias Input = Output

    @usableFromInline var isFinished = false

    /// The output which will be sent to a subscriber.
    public private(set) var output: [Output]

    /// The completion which will be sent to a subscriber.
    public private(set) var completion: Subscribers.Completion<Failure>

    /// Sets up a recording in a state ready to receive output.
    public init() {
      output = []
      completion = .finished
    }

    /// Sets up a complete recording with the specified output and completion.
    public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
      self.output = output
      self.completion = completion
      isFinished = true
    }

    /// Adds an output to the recording.
    ///
    /// Trapping if the recording has finished.
    public mutating func receive(_ input: Record<Output, Failure>.Recording.Input) {
      precondition(!isFinished, "Record.Recording: received an output after the completion")
      output.append(input)
    }

    /// Adds a completion to the recording.
    ///
    /// Trapping if the recording has already finished.
    public mutating func receive(completion: Subscribers.Completion<Failure>) {
      precondition(!isFinished, "Record.Recording: received a second completion")
      self.completion = completion
      isFinished = true
    }
  }
}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
  @usableFromInline
  enum CodingKeys: String, CodingKey {
    case output
    case completion
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      output: try container.decode([Output].self, forKey: .output),
      completion: try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion)
    )
  }

  /// Encodes this recording into the given encoder, as ``encode(to:)`` does; Combine declares both.
  @inlinable
  public func encode(into encoder: any Encoder) throws {
    try encode(to: encoder)
  }

  @inlinable
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(output, forKey: .output)
    try container.encode(completion, forKey: .completion)
  }
}

extension Record: Codable where Output: Codable, Failure: Codable {
  @usableFromInline
  enum CodingKeys: String, CodingKey {
    case recording
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(recording: try container.decode(Recording.self, forKey: .recording))
  }

  @inlinable
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(recording, forKey: .recording)
  }
}

extension Record: Sendable where Output: Sendable, Failure: Sendable {}

extension Record.Recording: Sendable where Output: Sendable, Failure: Sendable {}
