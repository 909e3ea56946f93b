/// One code of a ``CodedError``: a value from a closed set, with a stable name.
///
/// A module writes its codes as a struct that wraps a private enum, so callers can compare and
/// switch on them (`case .notFound:`) but cannot make new ones, and a new code is a change in
/// one place, the enum:
///
/// ```swift
/// public struct Code: ErrorCode {
///     public static let notFound = Code(.notFound)
///     public var description: String { wrapped.rawValue }
///     public static var allCases: [Code] { Wrapped.allCases.map(Code.init) }
///
///     private enum Wrapped: String, CaseIterable { case notFound }
///     private let wrapped: Wrapped
///     private init(_ wrapped: Wrapped) { self.wrapped = wrapped }
/// }
/// ```
///
/// The `description` is the stable name (`"notFound"`): it is what logs and messages show, and
/// it does not change once released. `allCases` lists every code, so a test can hold the set
/// to its promises (distinct names, none empty).
public protocol ErrorCode: Hashable, Sendable, CustomStringConvertible, CaseIterable
where AllCases == [Self] {}
