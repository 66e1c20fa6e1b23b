import Foundation
public import Rill

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// A data task publishes its data and response once, or fails.
extension URLSession.DataTaskPublisher: SinglePublisher, MaybePublisher {}
