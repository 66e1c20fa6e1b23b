/// A type that defines methods for encoding.
///
/// Foundation's `JSONEncoder` and `PropertyListEncoder` conform to it in the `Rill` module; ``Publisher/encode(encoder:)``
/// uses it to encode each element of a stream.
public protocol TopLevelEncoder {
  /// The type this encoder produces.
  associatedtype Output

  /// Encodes an instance of the indicated type.
  ///
  /// - Parameter value: The instance to encode.
  /// - Returns: The encoded representation of `value`.
  /// - Throws: An error when `value` cannot be encoded.
  func encode<T: Encodable>(_ value: T) throws -> Output
}

/// A type that defines methods for decoding.
///
/// Foundation's `JSONDecoder` and `PropertyListDecoder` conform to it in the `Rill` module;
/// ``Publisher/decode(type:decoder:)`` uses it to decode each element of a stream.
public protocol TopLevelDecoder {
  /// The type this decoder accepts.
  associatedtype Input

  /// Decodes an instance of the indicated type.
  ///
  /// - Parameters:
  ///   - type: The type of the value to decode.
  ///   - from: The encoded representation to decode from.
  /// - Returns: The decoded value.
  /// - Throws: An error when the input is not a valid representation of `type`.
  func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}
