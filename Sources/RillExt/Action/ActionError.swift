/// Why an ``Action`` execution failed: the action could not start it, or its work failed.
///
/// ```
/// execute while busy or disabled:  ^        (ActionError.notEnabled)
/// work:                            -1-^     (error e)
/// execute:                         -1-^     (ActionError.underlyingError(e))
/// ```
///
/// RxSwift's Action carries any `Error` in `underlyingError`; here the case carries the work's own `Failure`, so a
/// `switch` over it needs no cast.
public enum ActionError<Failure: Error>: Error {
  /// The action was executing another input, or its `enabledIf` publisher's latest value was `false`, so the
  /// work did not start.
  case notEnabled

  /// The work started, and failed with this error.
  case underlyingError(Failure)
}

extension ActionError: Equatable where Failure: Equatable {}

extension ActionError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .notEnabled: "notEnabled"
    case .underlyingError(let error): "underlyingError(\(error))"
    }
  }
}
