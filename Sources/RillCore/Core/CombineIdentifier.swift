import Atomics

private let nextIdentifier = ManagedAtomic<UInt64>(1)

/// A unique identifier for identifying publisher streams.
public struct CombineIdentifier: Hashable, CustomStringConvertible, Sendable {
  private let rawValue: UInt64

  /// Creates a unique Combine identifier.
  public init() {
    rawValue = nextIdentifier.loadThenWrappingIncrement(ordering: .relaxed)
  }

  /// Creates a Combine identifier, using the bit pattern of the provided object.
  ///
  /// As in Combine, its description is the object's address.
  public init(_ obj: AnyObject) {
    rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(obj)))
  }

  public var description: String {
    "0x" + String(rawValue, radix: 16)
  }
}

/// A protocol for uniquely identifying publisher streams.
public protocol CustomCombineIdentifierConvertible {
  /// A unique identifier for identifying publisher streams.
  var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
  /// The identity of the object, as a Combine identifier.
  public var combineIdentifier: CombineIdentifier {
    CombineIdentifier(self)
  }
}
