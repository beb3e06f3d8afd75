import Foundation

/// Why a world file was refused. ``message`` starts with the JSON path at fault, e.g.
/// `serviceProviders[0].mvpds[2].authenticationTTL: expected a number`.
public struct SandboxWorldError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path at fault (`$` for the whole document).
    public var path: String
    /// What is wrong there.
    public var problem: String

    /// `path: problem`.
    public var message: String { "\(path): \(problem)" }
    /// Same as ``message``.
    public var description: String { message }

    /// Creates an error.
    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }
}

extension SandboxWorld {
    /// Reads and checks a world file.
    ///
    /// Refuses malformed JSON, unknown keys (a misspelt flag would otherwise be silently
    /// ignored), wrong types, missing required fields, non-positive TTLs, duplicate ids,
    /// unknown boarding statuses, statements naming unknown service providers, and identity
    /// services with an empty or repeated issuer, an unknown kind or an unusable key.
    public static func load(from data: Data) throws(SandboxWorldError) -> SandboxWorld {
        let document: Any
        do {
            document = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            throw SandboxWorldError(path: "$", problem: "not valid JSON")
        }
        try WorldKeyChecker.check(document)
        let world: SandboxWorld
        do {
            world = try JSONDecoder().decode(SandboxWorld.self, from: data)
        } catch let error as DecodingError {
            throw WorldKeyChecker.describe(error)
        } catch {
            throw SandboxWorldError(path: "$", problem: "unreadable world file")
        }
        try world.validate()
        return world
    }

    /// Checks the rules JSON types cannot express.
    func validate() throws(SandboxWorldError) {
        if accessTokenTTL <= 0 { throw SandboxWorldError(path: "accessTokenTTL", problem: "must be positive") }
        if registrationTTL <= 0 { throw SandboxWorldError(path: "registrationTTL", problem: "must be positive") }
        if !(1...Self.maximumAuthenticationSessionTTL).contains(authenticationSessionTTL) {
            throw SandboxWorldError(
                path: "authenticationSessionTTL",
                problem: "must be from 1 to \(Self.maximumAuthenticationSessionTTL) seconds")
        }
        if let problem = throttle?.problem {
            throw SandboxWorldError(path: "throttle.\(problem.key)", problem: problem.text)
        }
        if softwareStatements.isEmpty {
            throw SandboxWorldError(path: "softwareStatements", problem: "at least one software statement is needed")
        }
        var providerIDs = Set<String>()
        for (providerIndex, provider) in serviceProviders.enumerated() {
            let providerPath = "serviceProviders[\(providerIndex)]"
            if provider.id.isEmpty { throw SandboxWorldError(path: "\(providerPath).id", problem: "must not be empty") }
            if !providerIDs.insert(provider.id).inserted {
                throw SandboxWorldError(
                    path: "\(providerPath).id", problem: "duplicate service provider \"\(provider.id)\"")
            }
            var mvpdIDs = Set<String>()
            for (mvpdIndex, mvpd) in provider.mvpds.enumerated() {
                let mvpdPath = "\(providerPath).mvpds[\(mvpdIndex)]"
                if mvpd.id.isEmpty { throw SandboxWorldError(path: "\(mvpdPath).id", problem: "must not be empty") }
                if !mvpdIDs.insert(mvpd.id).inserted {
                    throw SandboxWorldError(path: "\(mvpdPath).id", problem: "duplicate MVPD \"\(mvpd.id)\"")
                }
                if let problem = mvpd.problem {
                    throw SandboxWorldError(path: "\(mvpdPath).\(problem.key)", problem: problem.text)
                }
                if let status = mvpd.boardingStatus, !["SUPPORTED", "PICKER", "NOT_SUPPORTED"].contains(status) {
                    throw SandboxWorldError(
                        path: "\(mvpdPath).boardingStatus",
                        problem: "expected SUPPORTED, PICKER or NOT_SUPPORTED, found \"\(status)\"")
                }
                var usernames = Set<String>()
                for (userIndex, user) in mvpd.users.enumerated() where !usernames.insert(user.username).inserted {
                    throw SandboxWorldError(
                        path: "\(mvpdPath).users[\(userIndex)].username", problem: "duplicate user \"\(user.username)\""
                    )
                }
            }
        }
        try validateIdentityServices()
        for statement in softwareStatements.keys.sorted() {
            if statement.isEmpty {
                throw SandboxWorldError(path: "softwareStatements", problem: "a software statement must not be empty")
            }
            for (index, requestor) in softwareStatements[statement, default: []].enumerated()
            where !providerIDs.contains(requestor) {
                throw SandboxWorldError(
                    path: "softwareStatements.\(statement)[\(index)]",
                    problem: "unknown service provider \"\(requestor)\"")
            }
        }
    }
}

extension SandboxWorld {
    /// Each listed identity service has a non-empty issuer of its own and, when it gives a
    /// key, a usable RSA key (checked by signing and verifying with it).
    func validateIdentityServices() throws(SandboxWorldError) {
        var issuers = Set<String>()
        for (index, service) in identityServices.enumerated() {
            let path = "identityServices[\(index)]"
            if service.issuer.isEmpty { throw SandboxWorldError(path: "\(path).issuer", problem: "must not be empty") }
            if !issuers.insert(service.issuer).inserted {
                throw SandboxWorldError(
                    path: "\(path).issuer", problem: "duplicate identity service \"\(service.issuer)\"")
            }
            guard let key = service.key else { continue }
            if case .failure(let problem) = SandboxIdentityKeyCache.shared.keys(for: key) {
                throw SandboxWorldError(
                    path: "\(path).key" + (problem.member.map { ".\($0)" } ?? ""), problem: problem.text)
            }
        }
    }
}

/// Walks the raw JSON before decoding: refuses keys the world file does not define and
/// turns `DecodingError`s into path messages.
enum WorldKeyChecker {
    static let worldKeys = Set(SandboxWorld.CodingKeys.allCases.map(\.rawValue))
    static let providerKeys = Set(SandboxServiceProvider.CodingKeys.allCases.map(\.rawValue))
    static let mvpdKeys = Set(SandboxMVPDConfig.CodingKeys.allCases.map(\.rawValue))
    static let userKeys = Set(SandboxUser.CodingKeys.allCases.map(\.rawValue))
    static let throttleKeys = Set(SandboxThrottle.CodingKeys.allCases.map(\.rawValue))
    static let identityServiceKeys = Set(SandboxIdentityService.CodingKeys.allCases.map(\.rawValue))
    static let jwkKeys = Set(SandboxJWK.CodingKeys.allCases.map(\.rawValue))

    static func check(_ document: Any) throws(SandboxWorldError) {
        guard let world = document as? [String: Any] else {
            throw SandboxWorldError(path: "$", problem: "expected an object")
        }
        try refuseUnknown(world, allowed: worldKeys, path: nil)
        if let throttle = world["throttle"] as? [String: Any] {
            try refuseUnknown(throttle, allowed: throttleKeys, path: "throttle")
        }
        try checkIdentityServices(world["identityServices"])
        guard let providers = world["serviceProviders"] as? [Any] else { return }
        for (providerIndex, providerValue) in providers.enumerated() {
            guard let provider = providerValue as? [String: Any] else { continue }
            let providerPath = "serviceProviders[\(providerIndex)]"
            try refuseUnknown(provider, allowed: providerKeys, path: providerPath)
            guard let mvpds = provider["mvpds"] as? [Any] else { continue }
            for (mvpdIndex, mvpdValue) in mvpds.enumerated() {
                guard let mvpd = mvpdValue as? [String: Any] else { continue }
                let mvpdPath = "\(providerPath).mvpds[\(mvpdIndex)]"
                try refuseUnknown(mvpd, allowed: mvpdKeys, path: mvpdPath)
                guard let users = mvpd["users"] as? [Any] else { continue }
                for (userIndex, userValue) in users.enumerated() {
                    guard let user = userValue as? [String: Any] else { continue }
                    try refuseUnknown(user, allowed: userKeys, path: "\(mvpdPath).users[\(userIndex)]")
                }
            }
        }
    }

    /// Unknown keys in identity services and their JWKs, and a `kind` that is not one of
    /// the two (said here, where the value can be named).
    private static func checkIdentityServices(_ value: Any?) throws(SandboxWorldError) {
        guard let services = value as? [Any] else { return }
        for (index, serviceValue) in services.enumerated() {
            guard let service = serviceValue as? [String: Any] else { continue }
            let path = "identityServices[\(index)]"
            try refuseUnknown(service, allowed: identityServiceKeys, path: path)
            if let kind = service["kind"] as? String, SandboxIdentityKind(rawValue: kind) == nil {
                let expected = SandboxIdentityKind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
                throw SandboxWorldError(path: "\(path).kind", problem: "expected \(expected), found \"\(kind)\"")
            }
            if let key = service["key"] as? [String: Any] {
                try refuseUnknown(key, allowed: jwkKeys, path: "\(path).key")
            }
        }
    }

    private static func refuseUnknown(_ object: [String: Any], allowed: Set<String>, path: String?)
        throws(SandboxWorldError)
    {
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw SandboxWorldError(path: path.map { "\($0).\(unknown)" } ?? unknown, problem: "unknown key")
        }
    }

    static func describe(_ error: DecodingError) -> SandboxWorldError {
        switch error {
        case .typeMismatch(let type, let context):
            return SandboxWorldError(path: render(context.codingPath), problem: "expected \(describe(type))")
        case .valueNotFound(let type, let context):
            return SandboxWorldError(
                path: render(context.codingPath), problem: "expected \(describe(type)), found null")
        case .keyNotFound(let key, let context):
            return SandboxWorldError(path: render(context.codingPath + [key]), problem: "required key is missing")
        case .dataCorrupted(let context):
            let problem = context.debugDescription.contains("number") ? "expected a whole number" : "invalid value"
            return SandboxWorldError(path: render(context.codingPath), problem: problem)
        @unknown default:
            return SandboxWorldError(path: "$", problem: "unreadable world file")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is String.Type: "a string"
        case is [Any].Type, is [String].Type, is [SandboxServiceProvider].Type, is [SandboxMVPDConfig].Type,
            is [SandboxUser].Type,
            is [SandboxIdentityService].Type:
            "an array"
        default: "an object"
        }
    }

    /// `serviceProviders[0].mvpds[2].authenticationTTL`.
    private static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text.isEmpty ? "$" : text
    }
}

extension SandboxMVPDConfig {
    /// This configuration with world-file fields replaced by `changes` (JSON values as
    /// `JSONSerialization` gives them). The `id` cannot change.
    func applying(_ changes: [String: Any]) throws(SandboxWorldError) -> SandboxMVPDConfig {
        let allowed = Set(CodingKeys.allCases.map(\.rawValue)).subtracting(["id"])
        if let unknown = changes.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw SandboxWorldError(path: unknown, problem: "unknown key")
        }
        let merged: Data
        do {
            var object =
                try JSONSerialization.jsonObject(with: JSONEncoder().encode(self), options: []) as? [String: Any] ?? [:]
            for (key, value) in changes { object[key] = value }
            merged = try JSONSerialization.data(withJSONObject: object, options: [])
        } catch {
            throw SandboxWorldError(path: "$", problem: "the change is not JSON")
        }
        let updated: SandboxMVPDConfig
        do {
            updated = try JSONDecoder().decode(SandboxMVPDConfig.self, from: merged)
        } catch let error as DecodingError {
            throw WorldKeyChecker.describe(error)
        } catch {
            throw SandboxWorldError(path: "$", problem: "unreadable change")
        }
        if let problem = updated.problem { throw SandboxWorldError(path: problem.key, problem: problem.text) }
        return updated
    }

    /// The first rule JSON types cannot express that this configuration breaks.
    var problem: (key: String, text: String)? {
        if authenticationTTL <= 0 { return ("authenticationTTL", "must be positive") }
        if authorizationTTL <= 0 { return ("authorizationTTL", "must be positive") }
        if authorizationResourceLimit <= 0 { return ("authorizationResourceLimit", "must be positive") }
        if preauthorizationResourceLimit <= 0 { return ("preauthorizationResourceLimit", "must be positive") }
        if let limit = tempPassResourceLimit {
            if limit <= 0 { return ("tempPassResourceLimit", "must be positive") }
            if !tempPass {
                return ("tempPassResourceLimit", "only a TempPass MVPD (\"tempPass\": true) has a resource limit")
            }
        }
        return nil
    }
}
