/// A marble diagram together with the type of its values and how to read them.
///
/// The `marbles` helpers that take `Marbles` accept sources of different value types in one call, each source
/// keeping its own type, so the transform needs no annotation:
///
/// ```swift
/// let result = TestScheduler.marbles(
///   Marbles("-a--b---c-|"),
///   Marbles("t--f--t---|", values: ["t": true, "f": false])
/// ) { query, isEnabled in
///   query.combineLatest(isEnabled).filter { $1 }.map(\.0)
/// }
/// #expect(result == "-a----b-c-|")
/// ```
///
/// A diagram's values are read in one of three ways: through a `values` table, which suits any type (`Bool`,
/// an enum, a struct); as a `LosslessStringConvertible` type (`Marbles("-1-2-|", as: Int.self)`); or as the
/// strings written (`Marbles("-a-b-|")`). See <doc:TestingGuide> for the notation.
public struct Marbles<Value> {
  /// The diagram.
  public let diagram: String

  /// Reads a value written in the diagram, or returns `nil` if it is not one.
  let read: (String) -> Value?

  /// Says why a text is not a value, for a ``MarbleSyntaxError``.
  let invalid: (String) -> String

  /// Creates a source whose values are looked up in a table, by the text the diagram writes for them.
  ///
  /// ```swift
  /// Marbles("-t-f-|", values: ["t": true, "f": false])
  /// ```
  ///
  /// A value of several characters is quoted in the diagram and written without quotes in the table:
  /// `Marbles("-'on'-|", values: ["on": true])`.
  ///
  /// - Parameters:
  ///   - diagram: The source's diagram.
  ///   - values: The value each symbol of the diagram stands for.
  public init(_ diagram: String, values: [String: Value]) {
    self.diagram = diagram
    read = { values[$0] }
    invalid = { "'\($0)' is not in the values table" }
  }

  /// Creates a source whose values parse from their text as `Value`.
  ///
  /// ```swift
  /// Marbles("-1-'10'-|", as: Int.self)
  /// ```
  ///
  /// - Parameters:
  ///   - diagram: The source's diagram.
  ///   - type: The type of the values, when the transform does not imply it.
  public init(_ diagram: String, as type: Value.Type = Value.self) where Value: LosslessStringConvertible {
    self.diagram = diagram
    read = { Value($0) }
    invalid = { "'\($0)' is not a valid \(Value.self)" }
  }

  /// Creates a source whose values are the strings the diagram writes.
  ///
  /// - Parameter diagram: The source's diagram.
  public init(_ diagram: String) where Value == String {
    self.diagram = diagram
    read = { $0 }
    invalid = { "'\($0)' is not a valid String" }
  }
}
