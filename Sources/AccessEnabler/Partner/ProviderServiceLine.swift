import Foundation

/// The provider service's line protocol as the SDK reads and writes it (the service has
/// its own reading: two readings of one protocol check each other).
enum ProviderServiceLine {
    /// The protocol version the SDK speaks.
    static let version = 1

    /// One answer line, checked: `{"v":1,"id":…,"ok":true,…}` or `{"ok":false,"error":{…}}`.
    struct Answer {
        /// The answer's fields.
        let fields: [String: Any]
        /// The error, when `ok` is false.
        let error: (code: String, message: String)?

        /// The answer to the request `expectedID`, or `nil` when `bytes` is not one.
        init?(_ bytes: [UInt8], expectedID: String) {
            guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
                return nil
            }
            if let version = object["v"] {
                guard (version as? NSNumber)?.intValue == ProviderServiceLine.version else { return nil }
            }
            guard let ok = object["ok"] as? Bool else { return nil }
            // Only a refusal of the line itself may come without the request's id.
            let id = object["id"]
            if ok || !(id == nil || id is NSNull) { guard (id as? String) == expectedID else { return nil } }
            if ok {
                error = nil
            } else {
                guard let error = object["error"] as? [String: Any], let code = error["code"] as? String, !code.isEmpty
                else { return nil }
                let message = (error["message"] as? String) ?? "The TV provider service answered \(code)."
                self.error = (String(code.prefix(64)), String(message.prefix(1_000)))
            }
            fields = object
        }
    }

    /// A request id: unique in the process, so no answer is ever taken for another's.
    private static let counter = RequestCounter()

    /// `accessStatus` for `app`.
    static func accessStatus(app: (requestor: String, name: String), prompt: Bool) -> (id: String, line: String) {
        compose("accessStatus", [("app", appJSON(app)), ("prompt", prompt ? "true" : "false")])
    }

    /// `accountMetadata` for `app` with `request`'s fields; `waitSeconds` bounds the wait for the person.
    static func accountMetadata(
        app: (requestor: String, name: String), request: PartnerMetadataRequest, waitSeconds: TimeInterval?
    ) -> (id: String, line: String) {
        var fields: [(String, String)] = [
            ("app", appJSON(app)),
            ("isInterruptionAllowed", request.isInterruptionAllowed ? "true" : "false"),
            ("includeAccountProviderIdentifier", request.includeAccountProviderIdentifier ? "true" : "false"),
            ("includeAuthenticationExpirationDate", request.includeAuthenticationExpirationDate ? "true" : "false"),
            ("supportedAccountProviderIdentifiers", list(request.supportedAccountProviderIdentifiers)),
            ("featuredAccountProviderIdentifiers", list(request.featuredAccountProviderIdentifiers)),
            ("attributeNames", list(request.attributeNames)),
        ]
        if let saml = request.samlRequest { fields.append(("samlRequest", quoted(saml))) }
        if let waitSeconds, waitSeconds.isFinite {
            let seconds = WholeNumber.clamped(min(max(waitSeconds, 0), 3_600), rounding: .down, as: Int.self)
            fields.append(("waitSeconds", String(seconds)))
        }
        return compose("accountMetadata", fields)
    }

    /// `subscribe`.
    static func subscribe() -> (id: String, line: String) { compose("subscribe", []) }

    /// The metadata an `accountMetadata` answer carries, each value checked.
    static func metadata(_ fields: [String: Any], socketPath: String) throws(PartnerFrameworkError)
        -> PartnerAccountMetadata
    {
        func unreadable(_ reason: String) -> PartnerFrameworkError {
            let failure = ProviderServiceSocketFailure.badAnswer(path: socketPath, reason: reason)
            return .other(code: failure.code, message: failure.message)
        }
        var provider: String?
        if let value = fields["accountProviderIdentifier"], !(value is NSNull) {
            guard let text = value as? String, !text.isEmpty, text.count <= 256 else {
                throw unreadable("accountProviderIdentifier is not a provider id")
            }
            provider = text
        }
        var expiry: Date?
        if let value = fields["authenticationExpirationDate"], !(value is NSNull) {
            guard let date = date(milliseconds: value) else {
                throw unreadable("authenticationExpirationDate is not a time in milliseconds")
            }
            expiry = date
        }
        var saml: String?
        if let value = fields["samlResponse"], !(value is NSNull) {
            guard let text = value as? String, !text.isEmpty else {
                throw unreadable("samlResponse is not a SAML response")
            }
            saml = text
        }
        return PartnerAccountMetadata(
            accountProviderIdentifier: provider, authenticationExpirationDate: expiry, samlResponse: saml)
    }

    /// Milliseconds since 1970 as a date, when they are a whole number from 1970 to 9999.
    static func date(milliseconds value: Any) -> Date? {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        let milliseconds = number.doubleValue
        guard milliseconds.isFinite, milliseconds == milliseconds.rounded(),
            (0...253_402_300_799_000).contains(milliseconds)
        else { return nil }
        return Date(timeIntervalSince1970: milliseconds / 1_000)
    }

    // MARK: Writing

    private static func compose(_ op: String, _ fields: [(String, String)]) -> (id: String, line: String) {
        let id = "ae-\(getpid())-\(counter.next())"
        let pairs = [("v", String(version)), ("id", quoted(id)), ("op", quoted(op))] + fields
        return (id, "{" + pairs.map { quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}")
    }

    private static func appJSON(_ app: (requestor: String, name: String)) -> String {
        "{\"requestor\":\(quoted(app.requestor)),\"name\":\(quoted(app.name))}"
    }

    private static func list(_ items: [String]) -> String { "[" + items.map(quoted).joined(separator: ",") + "]" }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case let c where c.value < 0x20 || c.value == 0x2028 || c.value == 0x2029:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// A process-wide counter of request ids.
private final class RequestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value: UInt64 = 0

    func next() -> UInt64 {
        lock.withLock {
            value &+= 1
            return value
        }
    }
}
