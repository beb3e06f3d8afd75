import Foundation

/// Sends one prepared request through the transport and maps transport failures onto
/// ``RESTClientError/transport(operation:_:)``.
struct RESTExchange: Sendable {
    let transport: any HTTPTransport
    let timeout: TimeInterval

    func send(_ request: HTTPRequestMessage, operation: RESTOperation) async throws(RESTClientError) -> HTTPResponseMessage {
        do {
            return try await transport.send(request, timeout: timeout)
        } catch {
            throw .transport(operation: operation, error)
        }
    }
}
