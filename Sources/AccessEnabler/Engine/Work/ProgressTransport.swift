import Foundation

/// A transport decorator that counts every request sent and every answer or failure as
/// progress of the SDK (``ActivityTracker/progress``), so a test rig that bounds a wait on
/// progress sees a flow of several requests in one child task move, request by request.
struct ProgressTransport: HTTPTransport {
    let inner: any HTTPTransport
    let activity: ActivityTracker

    var keepsItsDeadline: Bool { inner.keepsItsDeadline }

    func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage
    {
        activity.progressed()
        defer { activity.progressed() }
        return try await inner.send(request, timeout: timeout)
    }
}
