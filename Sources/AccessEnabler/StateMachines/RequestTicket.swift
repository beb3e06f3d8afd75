import Foundation

/// Identifies one request a child task carries out for the state machine, so that an
/// answer for work that was abandoned meanwhile is recognised and dropped.
struct RequestTicket: Hashable, Sendable, CustomStringConvertible {
    let value: UInt64
    var description: String { "ticket#\(value)" }
}
