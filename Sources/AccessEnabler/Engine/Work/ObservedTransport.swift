import Foundation

/// The configured transport as every REST client of an AccessEnabler sends through it, with
/// what the SDK takes from each exchange, in one frame:
///
/// - **progress**: every request sent and every answer or failure is progress of the SDK
///   (``ActivityTracker/progressed()``), so a test rig that bounds a wait on progress sees a
///   flow of several requests move, request by request;
/// - **the size limit** (``ResponseSizeLimit``): the request carries the most body bytes the
///   SDK reads, and a longer body still arriving fails the exchange with
///   ``TransportFailure/responseTooLarge(limit:)``;
/// - **diagnostics**, when the app asked for them: each exchange as the client sees it
///   (method, host, path, status or failure, duration — nothing else), an oversized body
///   refused;
/// - **Adobe's time**: the `Date` header of every answer accepted goes to the ``ServerClock``.
///
/// One decorator rather than four nested ones: a device waiting for an answer keeps this
/// frame, not one per concern (thousands of devices waiting hold thousands of them).
struct ObservedTransport: HTTPTransport {
    let inner: any HTTPTransport
    let activity: ActivityTracker
    /// The most bytes of body accepted.
    let limit: Int
    /// Where each exchange is reported, when the app asked for diagnostics.
    let diagnostics: (@Sendable (Diagnostic) -> Void)?
    let clock: any TimeSource
    let serverClock: ServerClock

    var keepsItsDeadline: Bool { inner.keepsItsDeadline }

    func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage
    {
        var bounded = request
        bounded.maximumResponseBodySize = min(limit, request.maximumResponseBodySize ?? limit)
        let started = diagnostics == nil ? 0 : DispatchTime.now().uptimeNanoseconds
        activity.progressed()
        let outcome: Result<HTTPResponseMessage, TransportFailure>
        do {
            let response = try await inner.send(bounded, timeout: timeout)
            outcome = response.body.count <= limit ? .success(response) : .failure(.responseTooLarge(limit: limit))
        } catch {
            outcome = .failure(error)
        }
        activity.progressed()
        return try accepted(outcome, of: bounded, startedAt: started).get()
    }

    /// Reports `outcome` and reads Adobe's time from it. Not inlined: its temporaries would
    /// otherwise sit in the frame that waits for the answer.
    @inline(never)
    private func accepted(
        _ outcome: Result<HTTPResponseMessage, TransportFailure>, of request: HTTPRequestMessage, startedAt: UInt64
    ) -> Result<HTTPResponseMessage, TransportFailure> {
        if let diagnostics {
            let seconds = TimeInterval(DispatchTime.now().uptimeNanoseconds - startedAt) / 1_000_000_000
            let (status, failure): (Int?, String?) =
                switch outcome {
                case .success(let response): (response.status, nil)
                case .failure(let error): (nil, error.sentence)
                }
            diagnostics(
                .restExchange(
                    RESTExchangeRecord(
                        method: request.method, host: request.url.host ?? "", path: request.url.path,
                        operation: request.operationName, status: status, failure: failure, duration: seconds)))
        }
        if case .success(let response) = outcome, let header = response.header("Date"),
            let date = HTTPDate.parse(header)
        {
            serverClock.record(serverDate: date, deviceNow: clock.now, monotonic: clock.monotonicSeconds)
        }
        return outcome
    }
}
