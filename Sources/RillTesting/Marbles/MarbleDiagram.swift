/// The error a marble publisher fails with at a `^`.
///
/// Every `^` in a diagram sends the same error, so operators that compare or transform failures can be
/// tested: `MarbleError() == MarbleError()`.
public struct MarbleError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
  /// Creates the marble failure.
  public init() {}

  /// `MarbleError`.
  public var description: String { "MarbleError" }
}

/// A mistake in a marble diagram, with the index of the character where it was found.
///
/// Marble helpers never trap on a malformed diagram: they return this error's description in place of the
/// rendered result, so the test fails with a message that points at the mistake. The index is zero-based and
/// counts every character of the diagram, spaces included:
///
/// ```swift
/// #expect(TestScheduler.marbles(" -1-[2") { $0 } == "marble error at index 4 of \" -1-[2\": an unterminated group")
/// ```
public struct MarbleSyntaxError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
  /// The diagram that failed to parse.
  public let diagram: String

  /// The zero-based index of the offending character in `diagram`, counting every character, spaces included.
  public let index: Int

  /// What is wrong.
  public let message: String

  /// Creates a syntax error.
  ///
  /// - Parameters:
  ///   - diagram: The diagram that failed to parse.
  ///   - index: The zero-based index of the offending character, spaces included.
  ///   - message: What is wrong.
  public init(diagram: String, index: Int, message: String) {
    self.diagram = diagram
    self.index = index
    self.message = message
  }

  /// The index, the diagram and the message: `marble error at index 3 of "-1-[2": an unterminated group`.
  public var description: String {
    "marble error at index \(index) of \"\(diagram)\": \(message)"
  }
}

/// A parsed marble diagram: its events in order, each on a tick.
struct MarbleDiagram {
  enum Symbol: Hashable {
    case value(String)
    case finished
    case failure
    case subscribe
    case cancel
  }

  struct Event {
    let tick: Int
    let symbol: Symbol
    /// Where the symbol starts in the source text, for error messages.
    let index: Int
  }

  let text: String
  let events: [Event]
  /// The number of ticks the diagram spans.
  let length: Int

  /// Parses a diagram: each symbol outside brackets is one tick, a bracketed group is one tick.
  ///
  /// A source diagram must keep the publisher contract: nothing after its completion, at most one `>` and one
  /// `!`. A recorded one (`recorded: true`) may break it, since it shows what a publisher really sent.
  init(_ text: String, recorded: Bool = false) throws(MarbleSyntaxError) {
    self.text = text
    var parser = Parser(text: text, recorded: recorded)
    (events, length) = try parser.parse()
  }

  private struct Parser {
    let text: String
    let recorded: Bool
    let characters: [Character]
    var position = 0
    var tick = 0
    var groupStart: Int?
    var events: [Event] = []
    var completedAt: Int?
    var seen: [Symbol: Int] = [:]

    init(text: String, recorded: Bool) {
      self.text = text
      self.recorded = recorded
      characters = Array(text)
    }

    func error(_ message: String, at index: Int) -> MarbleSyntaxError {
      MarbleSyntaxError(diagram: text, index: index, message: message)
    }

    mutating func add(_ symbol: Symbol, at index: Int) throws(MarbleSyntaxError) {
      if !recorded { try checkContract(symbol, at: index) }
      events.append(Event(tick: tick, symbol: symbol, index: index))
      if groupStart == nil { tick += 1 }
    }

    /// Rejects an event after the completion, and a second `>` or `!`.
    mutating func checkContract(_ symbol: Symbol, at index: Int) throws(MarbleSyntaxError) {
      switch symbol {
      case .value, .finished, .failure:
        if let completedAt {
          throw error("an event after the completion at index \(completedAt)", at: index)
        }
        if case .value = symbol {} else { completedAt = index }
      case .subscribe, .cancel:
        if let earlier = seen[symbol] {
          let name = symbol == .subscribe ? "subscription point '>'" : "cancellation point '!'"
          throw error("a second \(name); the first is at index \(earlier)", at: index)
        }
        seen[symbol] = index
      }
    }

    /// Reads a quoted value up to its closing quote: `\'` stands for `'` and `\\` for `\`; any other
    /// backslash is itself.
    mutating func quotedValue(openedAt index: Int) throws(MarbleSyntaxError) -> String {
      var value = ""
      while position < characters.count {
        let character = characters[position]
        position += 1
        switch character {
        case "'":
          return value
        case "\\" where position < characters.count && "'\\".contains(characters[position]):
          value.append(characters[position])
          position += 1
        default:
          value.append(character)
        }
      }
      throw error("an unterminated quote", at: index)
    }

    mutating func parse() throws(MarbleSyntaxError) -> ([Event], Int) {
      while position < characters.count {
        let index = position
        let character = characters[position]
        position += 1
        switch character {
        case " ", "\t", "\n":
          continue
        case "-":
          if groupStart != nil { throw error("'-' inside a group; a group is a single tick", at: index) }
          tick += 1
        case "|":
          try add(.finished, at: index)
        case "^":
          try add(.failure, at: index)
        case ">":
          try add(.subscribe, at: index)
        case "!":
          try add(.cancel, at: index)
        case ";":
          throw error(
            "';' is not a marble symbol; mark a cancellation with '!', or quote it (';') as a value",
            at: index
          )
        case ",":
          throw error("',' is not a marble symbol: a diagram cannot delay demand; quote it (',') as a value", at: index)
        case "[":
          if let groupStart { throw error("a group inside the group opened at index \(groupStart)", at: index) }
          groupStart = index
        case "]":
          guard let start = groupStart else { throw error("']' without a matching '['", at: index) }
          if events.last.map({ $0.index < start }) ?? true { throw error("an empty group", at: start) }
          groupStart = nil
          tick += 1
        case "'":
          try add(.value(quotedValue(openedAt: index)), at: index)
        default:
          try add(.value(String(character)), at: index)
        }
      }
      if let groupStart { throw error("an unterminated group", at: groupStart) }
      return (events, tick)
    }
  }
}

/// Renders timed events back into a marble diagram.
enum MarbleRenderer {
  /// A marble symbol for a value: the value itself if it is one plain character, otherwise quoted, with `'`
  /// and `\` escaped so that the diagram parses back to the same value.
  static func symbol(for value: String) -> String {
    if value.count == 1, !"-|^[]'>!;, \t\n".contains(value) { return value }
    var escaped = ""
    for character in value {
      if character == "'" || character == "\\" { escaped.append("\\") }
      escaped.append(character)
    }
    return "'\(escaped)'"
  }

  /// Renders `(tick, symbol)` pairs, ticks relative to the diagram's start, to at least `length` ticks.
  static func render(_ events: [(tick: Int, symbol: String)], length: Int) -> String {
    var byTick: [Int: [String]] = [:]
    for event in events { byTick[Swift.max(event.tick, 0), default: []].append(event.symbol) }
    let last = Swift.max((byTick.keys.max() ?? -1) + 1, length)
    var result = ""
    for tick in 0..<last {
      switch byTick[tick] {
      case nil: result += "-"
      case let symbols? where symbols.count == 1: result += symbols[0]
      case let symbols?: result += "[" + symbols.joined() + "]"
      }
    }
    return result
  }
}
