@_exported public import RillCore
