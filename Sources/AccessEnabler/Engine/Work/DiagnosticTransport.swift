import Foundation

/// A transport decorator that reports every exchange (method, host, path, status or
/// failure, duration — nothing else) to a diagnostics handler.
struct DiagnosticTransport: HTTPTransport {
    let inner: any HTTPTransport
    let report: @Sendable (Diagnostic) -> Void

    var keepsItsDeadline: Bool { inner.keepsItsDeadline }

    func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage
    {
        let started = DispatchTime.now().uptimeNanoseconds
        func record(status: Int?, failure: String?) {
            let seconds = TimeInterval(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000_000
            report(
                .restExchange(
                    RESTExchangeRecord(
                        method: request.method, host: request.url.host ?? "", path: request.url.path,
                        operation: request.operationName, status: status, failure: failure, duration: seconds)))
        }
        do {
            let response = try await inner.send(request, timeout: timeout)
            record(status: response.status, failure: nil)
            return response
        } catch {
            record(status: nil, failure: error.sentence)
            throw error
        }
    }
}
