import Foundation

@testable import PassSandbox

/// A request history written by hand for the checklist rules' unit tests: each request a
/// device sends, at a time the sketch moves forward, with the facts its answer showed.
struct ChecklistHistorySketch {
    private(set) var requests: [ObservedRequest] = []
    /// The time of the next request.
    var now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    /// The device of the requests that name none.
    static let device = Data("device-1".utf8).base64EncodedString()

    /// Moves the clock.
    mutating func wait(_ seconds: TimeInterval) { now = now.addingTimeInterval(seconds) }

    /// Adds a request `seconds` after the previous one. `device` `nil`: sent without
    /// `AP-Device-Identifier`; `headers` lists those sent of `Authorization`,
    /// `AP-Device-Identifier`, `X-Device-Info` (all by default, the device one only with a
    /// device); `otherHeaders` names more header fields sent; `bodyNames` the body's
    /// parameters; `description` what a DCR request's `X-Device-Info` said. The query
    /// parameters are those of `path`.
    @discardableResult
    mutating func send(
        _ method: String, _ path: String, after seconds: TimeInterval = 0, status: Int = 200,
        device: String? = Self.device,
        headers: Set<String>? = nil, bearer: Int? = 1, body: String = "", facts: ObservedFacts = ObservedFacts(),
        otherHeaders: [String] = [], bodyNames: [String] = [], description: String? = nil
    ) -> Int {
        wait(seconds)
        let sent = headers ?? Set(["Authorization", "X-Device-Info"] + (device == nil ? [] : ["AP-Device-Identifier"]))
        var request = SandboxRequest(method: method, target: path, body: Array(body.utf8))
        request.method = method
        let route = SandboxRoute(method: method, path: request.path)
        requests.append(
            ObservedRequest(
                sequence: requests.count + 1, at: now, method: method, path: request.path, route: route, status: status,
                deviceID: device,
                sentAuthorization: sent.contains("Authorization"),
                sentDeviceIdentifier: sent.contains("AP-Device-Identifier"),
                sentDeviceInfo: sent.contains("X-Device-Info"), bearer: bearer,
                signature: ObservedRequest.signature(of: request), facts: facts,
                queryNames: request.query.map(\.name), bodyNames: bodyNames,
                headerNames: (Array(sent) + otherHeaders).map { $0.lowercased() },
                deviceDescription: description))
        return requests.count - 1
    }

    /// The violations (or notices) of `rule` in the sketch, judged at ``now``.
    func violations(of rule: ChecklistRule) -> [SandboxChecklistViolation] {
        ChecklistRules.evaluate(ChecklistHistory(requests, now: now), rules: [rule]).map(\.violation)
    }

    /// The identifier of a device, as `AP-Device-Identifier` carries it.
    static func device(_ name: String) -> String { Data(name.utf8).base64EncodedString() }

    /// Facts with `change` applied.
    static func facts(_ change: (inout ObservedFacts) -> Void) -> ObservedFacts {
        var facts = ObservedFacts()
        change(&facts)
        return facts
    }
}
