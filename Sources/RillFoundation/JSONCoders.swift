public import Foundation

extension JSONEncoder: TopLevelEncoder {
  /// The data a JSON encoder produces.
  public typealias Output = Data
}

extension JSONDecoder: TopLevelDecoder {
  /// The data a JSON decoder reads.
  public typealias Input = Data
}

extension PropertyListEncoder: TopLevelEncoder {
  /// The data a property list encoder produces.
  public typealias Output = Data
}

extension PropertyListDecoder: TopLevelDecoder {
  /// The data a property list decoder reads.
  public typealias Input = Data
}
