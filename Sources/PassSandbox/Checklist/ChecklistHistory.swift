import Foundation

/// The requests the checklist rules read, oldest first, with the device each one is
/// attributed to, and the moment they are judged at. A request names its device in
/// `AP-Device-Identifier`; one that does not (a DCR request, a poll sent without it) is
/// attributed to the device its code was opened for, else to the device its client
/// credentials were first used on.
struct ChecklistHistory: Sendable {
    let requests: [ObservedRequest]
    /// When the rules judge, on the sandbox clock: what has not happened by then (a poll
    /// before a code expired, a logout page opened) has not happened.
    let now: Date
    /// The device of each request, by index (``SandboxChecklistViolation/unknownDevice``
    /// when nothing tells).
    let devices: [String]
    /// The device each client (`client_id`) was first used on.
    let deviceOfClient: [String: String]

    init(_ requests: [ObservedRequest], now: Date) {
        self.requests = requests
        self.now = now
        var deviceOfCode: [String: String] = [:]
        var deviceOfClient: [String: String] = [:]
        for request in requests {
            if let issued = request.facts.issuedCode, let device = issued.deviceID ?? request.deviceID {
                deviceOfCode[issued.code] = device
            }
            if let device = request.deviceID, let client = request.facts.clientID, deviceOfClient[client] == nil {
                deviceOfClient[client] = device
            }
        }
        self.deviceOfClient = deviceOfClient
        devices = requests.map { request in
            if let device = request.deviceID { return device }
            if let code = request.route?.code, let device = deviceOfCode[code] { return device }
            if let client = request.facts.clientID ?? request.facts.issuedRegistration?.clientID,
                let device = deviceOfClient[client]
            {
                return device
            }
            return SandboxChecklistViolation.unknownDevice
        }
    }

    /// A violation of `rule` by the request at `index`.
    func violation(_ rule: String, at index: Int, _ detail: String) -> SandboxChecklistViolation {
        let request = requests[index]
        return SandboxChecklistViolation(
            rule: rule, device: devices[index], request: request.label, at: request.at, detail: detail)
    }

    /// The indexes of the requests to `endpoint`, oldest first.
    func indexes(of endpoint: SandboxEndpoint) -> [Int] {
        requests.indices.filter { requests[$0].route?.endpoint == endpoint }
    }

    /// `seconds` as a person reads a delay: `0.5 s`, `45 s`, `3 min 20 s`, `23 h 59 min`.
    static func duration(_ seconds: TimeInterval) -> String {
        guard seconds.isFinite else { return "an unknown time" }
        let value = max(0, seconds)
        let tenths = (value * 10).rounded() / 10
        if tenths < 10, tenths != tenths.rounded() { return String(format: "%.1f s", tenths) }
        let whole = Int(min(value, 1e12).rounded())
        if whole < 60 { return "\(whole) s" }
        if whole < 3_600 { return whole % 60 == 0 ? "\(whole / 60) min" : "\(whole / 60) min \(whole % 60) s" }
        let minutes = (whole % 3_600) / 60
        return minutes == 0 ? "\(whole / 3_600) h" : "\(whole / 3_600) h \(minutes) min"
    }
}

extension SandboxRoute {
    /// The authentication code a path names (polls, session information, resume, the
    /// authenticate URL).
    var code: String? {
        switch self {
        case .profileForCode(_, let code), .sessionInformation(_, let code), .resumeSession(_, let code),
            .authenticate(_, let code):
            code
        default: nil
        }
    }
}
