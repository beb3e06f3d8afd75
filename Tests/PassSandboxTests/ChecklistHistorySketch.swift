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
    /// device).
    @discardableResult
    mutating func send(
        _ method: String, _ path: String, after seconds: TimeInterval = 0, status: Int = 200, device: String? = Self.device,
        headers: Set<String>? = nil, bearer: Int? = 1, body: String = "", facts: ObservedFacts = ObservedFacts()
    ) -> Int {
        wait(seconds)
        let sent = headers ?? Set(["Authorization", "X-Device-Info"] + (device == nil ? [] : ["AP-Device-Identifier"]))
        var request = SandboxRequest(method: method, target: path, body: Array(body.utf8))
        request.method = method
        let route = SandboxRoute(method: method, path: request.path)
        requests.append(
            ObservedRequest(
                sequence: requests.count + 1, at: now, method: method, path: request.path, route: route, status: status, deviceID: device,
                sentAuthorization: sent.contains("Authorization"), sentDeviceIdentifier: sent.contains("AP-Device-Identifier"),
                sentDeviceInfo: sent.contains("X-Device-Info"), bearer: bearer, signature: ObservedRequest.signature(of: request), facts: facts))
        return requests.count - 1
    }

    /// The violations of `rule` in the sketch.
    func violations(of rule: ChecklistRule) -> [SandboxChecklistViolation] {
        ChecklistRules.evaluate(ChecklistHistory(requests), rules: [rule]).map(\.violation)
    }

    /// Facts with `change` applied.
    static func facts(_ change: (inout ObservedFacts) -> Void) -> ObservedFacts {
        var facts = ObservedFacts()
        change(&facts)
        return facts
    }
}
