/// A subscriber or subscription that describes itself as Combine's do: its `description` is its name, which it also
/// shows in playgrounds, and its mirror has no children unless it defines one.
///
/// Only internal and private types take these defaults. A default implementation in an extension of a protocol that
/// is not public cannot be the witness of a public type's public conformance, so the public types (`Subscribers.Sink`,
/// `Subscribers.Assign`, `AnyPublisher`) spell these members out.
@usableFromInline
package protocol CombineDescribable: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible {}

extension CombineDescribable {
  /// The name, as `description` gives it.
  @usableFromInline
  package var playgroundDescription: Any { description }

  /// A mirror without children.
  @usableFromInline
  package var customMirror: Mirror { Mirror(self, children: [:]) }
}
