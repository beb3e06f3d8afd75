import Foundation

/// The line protocol, the service's reading of it: one JSON object per line, each request
/// with an `id` its answer echoes, `"v": 1` (optional), and `op`. Docs/ProviderService.md
/// is its reference; the SDK's client reads and writes it with code of its own.
package enum ServiceWire {
    /// The protocol version this service speaks.
    package static let version: Int64 = 1
    /// The longest line the service reads, newline excluded.
    package static let maximumLineLength = 65_536
    /// The most entries a list field may have.
    package static let maximumListCount = 256
    /// The longest SAML request read.
    package static let maximumSAMLRequestLength = 60_000
    /// The longest interactive wait an app may ask for, in seconds.
    package static let maximumWaitSeconds: Double = 3_600

    /// A line that is not a request: the error to answer, with the line's id when it had one.
    package struct Refusal: Error, Sendable, Equatable {
        package var id: RequestID?
        package var error: ServiceError
    }

    // MARK: Reading

    /// Reads one request line (without its newline).
    package static func request(_ line: some Collection<UInt8>) -> Result<(RequestID, ServiceRequest), Refusal> {
        guard line.count <= maximumLineLength else {
            return .failure(
                Refusal(
                    id: nil,
                    error: ServiceError(.lineTooLong, "A request line may be at most \(maximumLineLength) bytes.")))
        }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any] else {
            return .failure(
                Refusal(
                    id: nil,
                    error: ServiceError(
                        .badRequest, "Each line must be one JSON object, such as {\"id\":1,\"op\":\"hello\"}.")))
        }
        var fields = Fields(object)
        let id: RequestID
        switch fields.id() {
        case .success(let found): id = found
        case .failure(let error): return .failure(Refusal(id: nil, error: error))
        }
        do throws(ServiceError) {
            if let version = try fields.integer("v"), version != Self.version {
                throw ServiceError(
                    .unsupportedVersion,
                    "This service speaks protocol version \(Self.version); the request asked for \(version).")
            }
            return .success((id, try operation(&fields)))
        } catch {
            return .failure(Refusal(id: id, error: error))
        }
    }

    private static func operation(_ fields: inout Fields) throws(ServiceError) -> ServiceRequest {
        guard let op = try fields.string("op") else { throw ServiceError(.badRequest, "The request has no \"op\".") }
        switch op {
        case "hello": return .hello
        case "subscribe": return .subscribe
        case "status": return .status
        case "signOut": return .signOut
        case "signIn":
            return .signIn(
                supported: try fields.strings("supportedAccountProviderIdentifiers"),
                featured: try fields.strings("featuredAccountProviderIdentifiers"))
        case "accessStatus":
            return .accessStatus(try fields.app(), prompt: try fields.bool("prompt") ?? false)
        case "accountMetadata":
            let app = try fields.app()
            var question = ServiceRequest.MetadataQuestion()
            question.isInterruptionAllowed = try fields.bool("isInterruptionAllowed") ?? false
            question.includeAccountProviderIdentifier = try fields.bool("includeAccountProviderIdentifier") ?? true
            question.includeAuthenticationExpirationDate =
                try fields.bool("includeAuthenticationExpirationDate") ?? true
            question.supportedAccountProviderIdentifiers = try fields.strings("supportedAccountProviderIdentifiers")
            question.featuredAccountProviderIdentifiers = try fields.strings("featuredAccountProviderIdentifiers")
            question.samlRequest = try fields.string("samlRequest", maximumLength: maximumSAMLRequestLength)
            question.attributeNames = try fields.strings("attributeNames")
            if let wait = try fields.number("waitSeconds") {
                guard (0...maximumWaitSeconds).contains(wait) else {
                    throw ServiceError(
                        .badRequest, "\"waitSeconds\" must be a number of seconds from 0 to \(Int(maximumWaitSeconds))."
                    )
                }
                question.waitSeconds = wait
            }
            return .accountMetadata(app, question)
        default:
            if let change = ServiceRequest.PermissionChange(rawValue: op) {
                return .changePermission(try fields.app(), change)
            }
            throw ServiceError(
                .unknownOperation,
                "Unknown op \"\(op.prefix(64))\": the service knows hello, accessStatus, accountMetadata, subscribe, "
                    + "status, grant, deny, restrict, "
                    + "reset, signIn and signOut.")
        }
    }

    /// The fields of a request object, each read and checked once.
    private struct Fields {
        let object: [String: Any]
        init(_ object: [String: Any]) { self.object = object }

        func id() -> Result<RequestID, ServiceError> {
            let missing = ServiceError(
                .badRequest, "Every request needs an \"id\" (a string or an integer) for its answer to echo.")
            switch object["id"] {
            case let text as String:
                guard !text.isEmpty, text.count <= 128 else { return .failure(missing) }
                return .success(.string(text))
            case let number as NSNumber:
                guard let value = Self.integer(number) else { return .failure(missing) }
                return .success(.number(value))
            default:
                return .failure(missing)
            }
        }

        func string(_ key: String, maximumLength: Int = 1_024) throws(ServiceError) -> String? {
            guard let value = object[key], !(value is NSNull) else { return nil }
            guard let text = value as? String, text.utf8.count <= maximumLength else {
                throw ServiceError(.badRequest, "\"\(key)\" must be a string of at most \(maximumLength) bytes.")
            }
            return text
        }

        func bool(_ key: String) throws(ServiceError) -> Bool? {
            guard let value = object[key], !(value is NSNull) else { return nil }
            guard let number = value as? NSNumber, Self.isBoolean(number) else {
                throw ServiceError(.badRequest, "\"\(key)\" must be true or false.")
            }
            return number.boolValue
        }

        func number(_ key: String) throws(ServiceError) -> Double? {
            guard let value = object[key], !(value is NSNull) else { return nil }
            guard let number = value as? NSNumber, !Self.isBoolean(number), number.doubleValue.isFinite else {
                throw ServiceError(.badRequest, "\"\(key)\" must be a number.")
            }
            return number.doubleValue
        }

        func integer(_ key: String) throws(ServiceError) -> Int64? {
            guard let value = object[key], !(value is NSNull) else { return nil }
            guard let number = value as? NSNumber, let integer = Self.integer(number) else {
                throw ServiceError(.badRequest, "\"\(key)\" must be an integer.")
            }
            return integer
        }

        func strings(_ key: String) throws(ServiceError) -> [String] {
            guard let value = object[key], !(value is NSNull) else { return [] }
            guard let items = value as? [Any], items.count <= ServiceWire.maximumListCount else {
                throw ServiceError(
                    .badRequest, "\"\(key)\" must be a list of at most \(ServiceWire.maximumListCount) strings.")
            }
            return try items.map { item throws(ServiceError) in
                guard let text = item as? String, !text.isEmpty, text.count <= AppIdentity.maximumLength else {
                    throw ServiceError(
                        .badRequest,
                        "\"\(key)\" must hold non-empty strings of at most \(AppIdentity.maximumLength) characters.")
                }
                return text
            }
        }

        func app() throws(ServiceError) -> AppIdentity {
            let problem = ServiceError(
                .badRequest,
                "The request needs \"app\": {\"requestor\": …, \"name\": …}, each a non-empty string of at most "
                    + "\(AppIdentity.maximumLength) "
                    + "characters without control characters.")
            guard let app = object["app"] as? [String: Any], let requestor = app["requestor"] as? String,
                let name = app["name"] as? String,
                let identity = AppIdentity(requestor: requestor, name: name)
            else { throw problem }
            return identity
        }

        /// JSONSerialization reads `true` and `false` as numbers too: told apart by their type.
        static func isBoolean(_ number: NSNumber) -> Bool {
            String(cString: number.objCType) == "c"
        }

        /// The number as a whole `Int64`, when it is one (never a trapping conversion).
        static func integer(_ number: NSNumber) -> Int64? {
            guard !isBoolean(number) else { return nil }
            let value = number.doubleValue
            guard value.isFinite, value == value.rounded(), abs(value) < 9_007_199_254_740_992 else { return nil }
            return Int64(value)
        }
    }

    // MARK: Writing

    /// The answer line (without its newline) to the request `id`.
    package static func line(answering id: RequestID?, with answer: ServiceAnswer) -> String {
        var pairs: [(String, WireJSON)] = [("v", .int(version)), ("id", id.map(json) ?? .null)]
        switch answer {
        case .failure(let error):
            pairs.append(("ok", .bool(false)))
            pairs.append(("error", json(error)))
        default:
            pairs.append(("ok", .bool(true)))
            pairs += fields(of: answer)
        }
        return WireJSON.object(pairs).text
    }

    /// The event line (without its newline).
    package static func line(for event: ServiceEvent) -> String {
        var pairs: [(String, WireJSON)] = [("v", .int(version))]
        switch event {
        case .signInStarted(let code):
            pairs += [("event", .string("signInStarted")), ("signIn", json(code))]
        case .signedIn(let provider, let name, let expiresAt):
            pairs += [
                ("event", .string("signedIn")), ("provider", .string(provider)), ("providerName", .string(name)),
                ("expiresAt", milliseconds(expiresAt)),
            ]
        case .signedOut:
            pairs += [("event", .string("signedOut"))]
        case .signInEnded(let reason):
            pairs += [("event", .string("signInEnded")), ("reason", .string(reason))]
        case .permissionChanged(let app, let permission):
            pairs += [
                ("event", .string("permissionChanged")), ("app", json(app)),
                ("accessStatus", .string(permission.rawValue)),
            ]
        }
        return WireJSON.object(pairs).text
    }

    /// The operations, as `hello` lists them.
    package static let operations = [
        "hello", "accessStatus", "accountMetadata", "subscribe", "status", "grant", "deny", "restrict", "reset",
        "signIn", "signOut",
    ]

    private static func fields(of answer: ServiceAnswer) -> [(String, WireJSON)] {
        switch answer {
        case .hello:
            return [
                ("service", .string("accessenabler provider-service")), ("protocol", .int(version)),
                ("operations", .array(operations.map(WireJSON.string))),
            ]
        case .accessStatus(let permission):
            return [("accessStatus", .string(permission.rawValue))]
        case .metadata(let provider, let expiresAt, let saml):
            var pairs: [(String, WireJSON)] = [("accountProviderIdentifier", provider.map(WireJSON.string) ?? .null)]
            if let expiresAt { pairs.append(("authenticationExpirationDate", milliseconds(expiresAt))) }
            if let saml { pairs.append(("samlResponse", .string(saml))) }
            return pairs
        case .subscribed:
            return [("subscribed", .bool(true))]
        case .status(let status):
            let household: WireJSON =
                status.household.map {
                    .object([
                        ("provider", .string($0.provider)), ("providerName", .string($0.providerName)),
                        ("expiresAt", milliseconds($0.expiresAt)),
                    ])
                } ?? .null
            let permissions = status.permissions.map { app, permission in
                WireJSON.object([
                    ("requestor", .string(app.requestor)), ("name", .string(app.name)),
                    ("accessStatus", .string(permission.rawValue)),
                ])
            }
            return [
                ("household", household), ("signIn", status.signIn.map(json) ?? .null),
                ("permissions", .array(permissions)),
            ]
        case .permission(let app, let permission):
            return [("app", json(app)), ("accessStatus", .string(permission.rawValue))]
        case .signInCode(let code):
            return [("signIn", json(code))]
        case .signedOut(let was):
            return [("wasSignedIn", .bool(was))]
        case .failure:
            return []
        }
    }

    private static func json(_ id: RequestID) -> WireJSON {
        switch id {
        case .string(let text): .string(text)
        case .number(let value): .int(value)
        }
    }

    private static func json(_ error: ServiceError) -> WireJSON {
        .object(
            ("code", .string(error.code.rawValue)), ("message", .string(error.message)),
            ("signIn", error.signIn.map(json)))
    }

    private static func json(_ code: SignInCode) -> WireJSON {
        .object([
            ("code", .string(code.code)), ("url", .string(code.url)), ("completeUrl", .string(code.completeURL)),
            ("expiresAt", milliseconds(code.expiresAt)),
        ])
    }

    private static func json(_ app: AppIdentity) -> WireJSON {
        .object([("requestor", .string(app.requestor)), ("name", .string(app.name))])
    }

    /// Milliseconds since 1970, as `AP-Partner-Framework-Status` writes dates.
    package static func milliseconds(_ date: Date) -> WireJSON {
        let value = (date.timeIntervalSince1970 * 1_000).rounded()
        return .int(value.isFinite && abs(value) < 9e15 ? Int64(value) : 0)
    }
}
