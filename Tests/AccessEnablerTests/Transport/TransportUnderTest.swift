import Foundation

@testable import AccessEnabler

/// The HTTP transports the SDK ships, for tests that hold both to the same behaviour.
enum TransportUnderTest: String, CaseIterable, CustomStringConvertible, Sendable {
    case curl, urlSession

    var description: String { rawValue }

    /// A new transport of this kind; `assumedServerTimeout` is the idle timeout it assumes
    /// for a server that does not advertise one.
    func make(assumedServerTimeout: TimeInterval = KeepAliveReuse.assumedServerTimeout) -> any HTTPTransport {
        switch self {
        case .curl: CurlTransport(assumedServerTimeout: assumedServerTimeout)
        case .urlSession: URLSessionTransport(assumedServerTimeout: assumedServerTimeout)
        }
    }
}
