import AccessEnabler
import Foundation
import PassSandbox

/// Reads scenario files, refusing anything malformed with the JSON path at fault.
public enum ScenarioParser {
    static let accessStatuses: Set<String> = ["granted", "denied", "restricted", "notDetermined", "error"]
    static let promptAnswers: Set<String> = ["granted", "denied", "notDetermined"]

    /// Parses scenario JSON.
    public static func parse(_ data: Data) throws(ScenarioError) -> Scenario {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let place = JSONSyntax.firstProblem(in: data).map { ": \($0)" } ?? ""
            throw ScenarioError(path: "$", reason: "not valid JSON\(place)")
        }
        let reader = JSONReader(JSONValue(foundation: root))
        try reader.allowOnly([
            "platform", "loginScreen", "providerChoice", "world", "softwareStatement", "device", "options",
            "serviceToken",
            "platformIdentity", "apps", "steps", "expect",
        ])
        var scenario = Scenario()
        if let platform = reader.member("platform") { scenario.platform = try parsePlatform(platform) }
        if let screen = reader.member("loginScreen") { scenario.loginScreen = try parseLoginScreen(screen) }
        if let choice = reader.member("providerChoice") { scenario.providerChoice = try parseProviderChoice(choice) }
        if let world = reader.member("world") {
            scenario.world = try parseWorld(world)
        }
        let world = scenario.world
        if let statement = reader.member("softwareStatement") {
            scenario.softwareStatement = try statement.requireString()
        }
        if let object = reader.object, object["device"] == .null {
            scenario.device.present = false
        } else if let device = reader.member("device") {
            scenario.device = try parseDevice(device)
        }
        if let options = reader.member("options") { scenario.options = try options.requireObject() }
        if let token = reader.member("serviceToken") {
            scenario.serviceToken = try parseIdentityToken(token, kind: .serviceToken, world: world)
        }
        if let token = reader.member("platformIdentity") {
            scenario.platformIdentity = try parseIdentityToken(token, kind: .platformIdentity, world: world)
        }
        if let apps = reader.member("apps") { scenario.apps = try parseApps(apps, world: world) }
        let appNames = Set(scenario.appNames)
        for (index, step) in try reader.requireMember("steps").requireArray().enumerated() {
            let (parsed, app) = try parseStep(step, world: world, apps: appNames)
            scenario.steps.append(parsed)
            if let app, app != Scenario.topLevelApp { scenario.stepApps[index] = app }
        }
        if let expect = reader.member("expect") {
            scenario.expect = try expect.requireArray().map { item throws(ScenarioError) in try item.requireObject() }
        }
        return scenario
    }

    private static func parsePlatform(_ reader: JSONReader) throws(ScenarioError) -> AccessEnablerConfiguration.Platform
    {
        let text = try reader.requireString()
        guard let value = AccessEnablerConfiguration.Platform(rawValue: text) else {
            throw reader.fail("expected \"iOS\" or \"tvOS\", found \"\(text)\"")
        }
        return value
    }

    private static func parseLoginScreen(_ reader: JSONReader) throws(ScenarioError)
        -> AccessEnablerConfiguration.LoginScreen
    {
        let text = try reader.requireString()
        guard let value = AccessEnablerConfiguration.LoginScreen(rawValue: text) else {
            throw reader.fail("expected \"thisDevice\" or \"secondScreen\", found \"\(text)\"")
        }
        return value
    }

    private static func parseProviderChoice(_ reader: JSONReader) throws(ScenarioError) -> Scenario.ProviderChoice {
        let text = try reader.requireString()
        guard let value = Scenario.ProviderChoice(rawValue: text) else {
            throw reader.fail("expected \"onDevice\" or \"onSecondScreen\", found \"\(text)\"")
        }
        return value
    }

    /// `{"sub": …, "issuer"?: …}`: the issuer must be an identity service of the world, of
    /// the kind the token is presented as, whose private key the sandbox holds (it signs
    /// the token when the run starts).
    private static func parseIdentityToken(_ reader: JSONReader, kind: SandboxIdentityKind, world: SandboxWorld)
        throws(ScenarioError) -> Scenario.IdentityToken
    {
        try reader.allowOnly(["sub", "issuer"])
        let subjectReader = try reader.requireMember("sub")
        let subject = try subjectReader.requireString()
        guard !subject.isEmpty else { throw subjectReader.fail("the subject must not be empty") }
        let issuerReader = reader.member("issuer")
        let issuer = try issuerReader?.requireString()
        let name =
            issuer
            ?? (kind == .serviceToken
                ? SandboxIdentityService.defaultServiceTokenIssuer : SandboxIdentityService.defaultPlatformIssuer)
        let place = issuerReader ?? reader
        let services = world.identityServicesInForce
        guard let service = services.first(where: { $0.issuer == name }) else {
            throw place.fail(
                "the world has no identity service \"\(name)\" (it has \(services.map(\.issuer).joined(separator: ", ")))"
            )
        }
        guard service.kind == kind else {
            let wanted = kind == .serviceToken ? "a service token" : "a platform identity"
            throw place.fail("\"\(name)\" issues \(service.kind.headerName) tokens, not \(wanted)")
        }
        if let key = service.key, key.d == nil {
            throw place.fail(
                "the world gives only the public key of \"\(name)\", so the sandbox cannot sign a token for it")
        }
        return Scenario.IdentityToken(subject: subject, issuer: issuer)
    }

    /// The longest duration a scenario may name, in seconds: enough for any expiry, and one
    /// every clock can add without leaving the dates it can represent.
    private static let century: Double = 100 * 365 * 86_400

    private static let appKeys: Set<String> = [
        "platform", "loginScreen", "providerChoice", "softwareStatement", "device", "options", "serviceToken",
        "platformIdentity", "storage",
    ]

    private static func parseApps(_ reader: JSONReader, world: SandboxWorld) throws(ScenarioError) -> [String: Scenario
        .App]
    {
        let object = try reader.requireObject()
        var apps: [String: Scenario.App] = [:]
        for name in object.keys.sorted() {
            let app = JSONReader(object[name]!, path: "\(reader.path).\(name)")
            guard !name.isEmpty else { throw app.fail("an app needs a name") }
            guard name != Scenario.topLevelApp else {
                throw app.fail("\"A\" is the top-level app: its settings are the scenario's own top-level keys")
            }
            try app.allowOnly(appKeys)
            var parsed = Scenario.App()
            if let value = app.member("platform") { parsed.platform = try parsePlatform(value) }
            if let value = app.member("loginScreen") { parsed.loginScreen = try parseLoginScreen(value) }
            if let value = app.member("providerChoice") { parsed.providerChoice = try parseProviderChoice(value) }
            if let value = app.member("softwareStatement") { parsed.softwareStatement = try value.requireString() }
            if app.object?["device"] == .null {
                var none = Scenario.Device()
                none.present = false
                parsed.device = none
            } else if let value = app.member("device") {
                parsed.device = try parseDevice(value)
            }
            if let value = app.member("options") { parsed.options = try value.requireObject() }
            if let value = app.member("serviceToken") {
                parsed.serviceToken = try parseIdentityToken(value, kind: .serviceToken, world: world)
            }
            if let value = app.member("platformIdentity") {
                parsed.platformIdentity = try parseIdentityToken(value, kind: .platformIdentity, world: world)
            }
            if let value = app.member("storage") {
                let text = try value.requireString()
                if text != "own" {
                    guard text == Scenario.topLevelApp || object.keys.contains(text) else {
                        throw value.fail(
                            "expected \"own\" or the name of another app (\(([Scenario.topLevelApp] + object.keys.sorted()).joined(separator: ", "))), found \"\(text)\""
                        )
                    }
                    guard text != name else {
                        throw value.fail("an app cannot share its own storage; \"own\" gives it a directory of its own")
                    }
                    parsed.storage = .sharedWith(text)
                }
            }
            apps[name] = parsed
        }
        // Sharing follows a chain to an app with storage of its own: a loop has none.
        for name in apps.keys.sorted() {
            var seen: [String] = [name]
            var current = name
            while case .sharedWith(let next)? = apps[current]?.storage {
                guard !seen.contains(next) else {
                    throw ScenarioError(
                        path: "\(reader.path).\(name).storage",
                        reason:
                            "the apps share storage in a loop (\((seen + [next]).joined(separator: " → "))): one of them needs \"own\""
                    )
                }
                seen.append(next)
                current = next
            }
        }
        return apps
    }

    private static func parseWorld(_ reader: JSONReader) throws(ScenarioError) -> SandboxWorld {
        if case .string(let name) = reader.value {
            guard name == "default" else {
                throw reader.fail("expected \"default\" or a world object, found \"\(name)\"")
            }
            return .default
        }
        _ = try reader.requireObject()
        let data = Data(reader.value.compactJSON.utf8)
        do {
            return try SandboxWorld.load(from: data)
        } catch {
            throw ScenarioError(path: error.path(under: reader.path), reason: error.problem)
        }
    }

    private static func parseDevice(_ reader: JSONReader) throws(ScenarioError) -> Scenario.Device {
        try reader.allowOnly(["accessStatus", "promptAnswer", "signedIn", "picker", "failure"])
        let change = try parseDeviceChange(reader)
        var device = Scenario.Device()
        if let value = change.accessStatus { device.accessStatus = value }
        if let value = change.promptAnswer { device.promptAnswer = value }
        if let value = change.signedIn { device.signedIn = value }
        if let value = change.picker { device.picker = value }
        if let value = change.failure { device.failure = value }
        return device
    }

    private static func parseDeviceChange(_ reader: JSONReader) throws(ScenarioError) -> Scenario.DeviceChange {
        try reader.allowOnly(["accessStatus", "promptAnswer", "signedIn", "picker", "failure"])
        var change = Scenario.DeviceChange()
        if let status = reader.member("accessStatus") {
            let text = try status.requireString()
            guard accessStatuses.contains(text) else {
                throw status.fail(
                    "expected one of \(accessStatuses.sorted().joined(separator: ", ")), found \"\(text)\"")
            }
            change.accessStatus = text
        }
        if let answer = reader.member("promptAnswer") {
            let text = try answer.requireString()
            guard promptAnswers.contains(text) else {
                throw answer.fail(
                    "expected one of \(promptAnswers.sorted().joined(separator: ", ")), found \"\(text)\"")
            }
            change.promptAnswer = text
        }
        let object = try reader.requireObject()
        if object.keys.contains("signedIn") {
            if let signIn = reader.member("signedIn") {
                try signIn.allowOnly(["provider", "user", "expiresIn"])
                let provider = try signIn.requireMember("provider").requireString()
                let user = try signIn.requireMember("user").requireString()
                let expiresIn =
                    try signIn.member("expiresIn")?.requireNumber(in: -Self.century...Self.century) ?? 86_400
                change.signedIn = .some(Scenario.SignIn(provider: provider, user: user, expiresIn: expiresIn))
            } else {
                change.signedIn = .some(nil)
            }
        }
        if let picker = reader.member("picker") {
            change.picker = try picker.requireArray().map { entry throws(ScenarioError) in
                if case .string(let word) = entry.value {
                    switch word {
                    case "other": return .other
                    case "cancel": return .cancel
                    default:
                        throw entry.fail(
                            "expected \"other\", \"cancel\" or {\"select\": ID, \"user\": NAME}, found \"\(word)\"")
                    }
                }
                try entry.allowOnly(["select", "user"])
                return .select(
                    provider: try entry.requireMember("select").requireString(),
                    user: try entry.requireMember("user").requireString())
            }
        }
        if object.keys.contains("failure") {
            if let failure = reader.member("failure") {
                let name = try failure.requireString()
                guard PartnerFrameworkError(caseName: name) != nil else {
                    throw failure.fail("\"\(name)\" is not a PartnerFrameworkError case")
                }
                change.failure = .some(name)
            } else {
                change.failure = .some(nil)
            }
        }
        return change
    }

    private static let stepNames: Set<String> = [
        "setRequestor", "checkAuthentication", "getAuthentication", "setSelectedProvider", "login", "handleExternalURL",
        "checkAuthorization", "getAuthorization", "checkPreauthorizedResources", "preauthorize", "getMetadata",
        "getSelectedProvider",
        "logout", "openLogoutPages", "profiles", "selectProfile", "device", "throttle", "invalidateProfiles",
        "resetTempPass", "world", "advanceClock", "jumpDeviceClock", "restart", "setOptions", "fault", "clearFaults",
        "serviceToken", "platformIdentity", "serverLogout",
    ]

    /// A step and the app it names (`nil`: none given, so `A`).
    private static func parseStep(_ reader: JSONReader, world: SandboxWorld, apps: Set<String>) throws(ScenarioError)
        -> (Scenario.Step, String?)
    {
        let object = try reader.requireObject()
        var app: String?
        if let appReader = reader.member("app") {
            let name = try appReader.requireString()
            guard apps.contains(name) else {
                throw appReader.fail(
                    "no app \"\(name)\" in the scenario (it has \(apps.sorted().joined(separator: ", ")))")
            }
            app = name
        } else if object["app"] == .null {
            throw ScenarioError(path: "\(reader.path).app", reason: "expected the name of an app, found null")
        }
        let calls = object.keys.filter { $0 != "app" }
        guard calls.count == 1, let name = calls.first else {
            throw reader.fail(
                "a step is an object with exactly one key (the call), and optionally \"app\"; found \(calls.count) keys besides \"app\""
            )
        }
        return (try parseCall(name, of: reader, world: world), app)
    }

    private static func parseCall(_ name: String, of reader: JSONReader, world: SandboxWorld) throws(ScenarioError)
        -> Scenario.Step
    {
        let object = try reader.requireObject()
        guard stepNames.contains(name) else {
            throw ScenarioError(
                path: "\(reader.path).\(name)",
                reason: "is not a known step (expected one of: \(stepNames.sorted().joined(separator: ", ")))")
        }
        let argument = JSONReader(object[name]!, path: "\(reader.path).\(name)")
        switch name {
        case "setRequestor":
            if case .string(let id) = argument.value { return .setRequestor(id, serviceProviders: nil) }
            try argument.allowOnly(["requestor", "serviceProviders"])
            return .setRequestor(
                try argument.requireMember("requestor").requireString(),
                serviceProviders: try argument.member("serviceProviders")?.requireStrings())
        case "checkAuthentication": return .checkAuthentication
        case "getAuthentication":
            if argument.value == .null { return .getAuthentication(forceAuthn: false, filter: [], featured: []) }
            try argument.allowOnly(["forceAuthn", "filter", "featured"])
            return .getAuthentication(
                forceAuthn: try argument.member("forceAuthn")?.requireBool() ?? false,
                filter: try argument.member("filter")?.requireStrings() ?? [],
                featured: try argument.member("featured")?.requireStrings() ?? [])
        case "setSelectedProvider":
            if argument.value == .null { return .setSelectedProvider(nil) }
            return .setSelectedProvider(try argument.requireString())
        case "login":
            try argument.allowOnly(["username", "password", "mvpd"])
            let mvpd = try argument.member("mvpd").map { reader throws(ScenarioError) in
                try requireMVPD(reader, in: world)
            }
            return .login(
                username: try argument.requireMember("username").requireString(),
                password: try argument.requireMember("password").requireString(), mvpd: mvpd)
        case "handleExternalURL": return .handleExternalURL(try argument.requireString())
        case "checkAuthorization": return .checkAuthorization(try argument.requireString())
        case "getAuthorization": return .getAuthorization(try argument.requireString())
        case "checkPreauthorizedResources":
            if case .array = argument.value {
                return .checkPreauthorizedResources(try argument.requireStrings(), cache: true)
            }
            try argument.allowOnly(["resources", "cache"])
            return .checkPreauthorizedResources(
                try argument.requireMember("resources").requireStrings(),
                cache: try argument.member("cache")?.requireBool() ?? true)
        case "preauthorize":
            try argument.allowOnly(["resources", "disable"])
            let disabled = try argument.member("disable")?.requireStrings() ?? []
            for (index, feature) in disabled.enumerated() where PreauthorizeRequest.Feature(rawValue: feature) == nil {
                throw ScenarioError(
                    path: "\(argument.path).disable[\(index)]",
                    reason: "expected \"LOCAL_CACHE\" or \"REMOTE_CACHE\", found \"\(feature)\"")
            }
            return .preauthorize(resources: try argument.requireMember("resources").requireStrings(), disable: disabled)
        case "getMetadata":
            try argument.allowOnly(["opCode", "key", "resource"])
            let opCode = try argument.requireMember("opCode")
            let text = try opCode.requireString()
            guard ["authentication", "authorization", "deviceId", "userMeta"].contains(text) else {
                throw opCode.fail("expected authentication, authorization, deviceId or userMeta, found \"\(text)\"")
            }
            return .getMetadata(
                opCode: text, key: try argument.member("key")?.requireString(),
                resource: try argument.member("resource")?.requireString())
        case "getSelectedProvider": return .getSelectedProvider
        case "logout": return .logout
        case "openLogoutPages": return .openLogoutPages
        case "profiles": return .profiles
        case "selectProfile": return .selectProfile(try argument.requireString())
        case "device": return .device(try parseDeviceChange(argument))
        case "world":
            try argument.allowOnly(["mvpd", "set"])
            let id = try requireMVPD(try argument.requireMember("mvpd"), in: world)
            return .world(mvpd: id, set: try argument.requireMember("set").requireObject())
        case "serverLogout":
            try argument.allowOnly(["mvpd"])
            return .serverLogout(mvpd: try requireMVPD(try argument.requireMember("mvpd"), in: world))
        case "serviceToken":
            if argument.value == .null { return .serviceToken(nil) }
            return .serviceToken(try parseIdentityToken(argument, kind: .serviceToken, world: world))
        case "platformIdentity":
            if argument.value == .null { return .platformIdentity(nil) }
            return .platformIdentity(try parseIdentityToken(argument, kind: .platformIdentity, world: world))
        case "jumpDeviceClock":
            return .jumpDeviceClock(try argument.requireNumber(in: -Self.century...Self.century))
        case "advanceClock":
            let seconds = try argument.requireNumber()
            guard seconds >= 0 else { throw argument.fail("the clock only moves forward; got \(seconds)") }
            return .advanceClock(try argument.requireNumber(in: 0...Self.century))
        case "throttle":
            if argument.value == .null { return .throttle(nil) }
            try argument.allowOnly(["requestsPerSecond", "burst", "retryAfter"])
            let rate = try argument.member("requestsPerSecond")?.requireNumber(in: 0...1_000_000) ?? 1
            let burst = try argument.member("burst")?.requireWholeNumber(in: 0...1_000_000) ?? 10
            let retryAfter = try argument.member("retryAfter")?.requireWholeNumber(in: 0...86_400)
            guard rate > 0 else { throw argument.fail("requestsPerSecond must be positive; got \(rate)") }
            return .throttle(SandboxThrottle(requestsPerSecond: rate, burst: burst, retryAfter: retryAfter))
        case "invalidateProfiles":
            try argument.allowOnly(["mvpd"])
            return .invalidateProfiles(mvpd: try argument.member("mvpd")?.requireString())
        case "resetTempPass":
            try argument.allowOnly(["mvpd"])
            return .resetTempPass(mvpd: try argument.member("mvpd")?.requireString())
        case "restart": return .restart
        case "setOptions": return .setOptions(try argument.requireObject())
        case "clearFaults": return .clearFaults
        case "fault":
            try argument.allowOnly(Set(faultMembers.map(\.key)).union(["endpoint"]))
            let endpoint = try argument.requireMember("endpoint")
            let endpointName = try endpoint.requireString()
            guard let sandboxEndpoint = SandboxEndpoint(rawValue: endpointName) else {
                throw endpoint.fail(
                    "unknown endpoint \"\(endpointName)\" (expected one of: \(SandboxEndpoint.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            var fault = SandboxFault()
            for member in faultMembers {
                if let reader = argument.member(member.key) { try member.read(reader, &fault) }
            }
            return .fault(endpoint: sandboxEndpoint, fault)
        default:
            throw argument.fail("is not a known step")
        }
    }

    /// The id of an MVPD of the scenario's world.
    private static func requireMVPD(_ reader: JSONReader, in world: SandboxWorld) throws(ScenarioError) -> String {
        let id = try reader.requireString()
        guard world.serviceProviders.contains(where: { $0.mvpd(id) != nil }) else {
            throw reader.fail("no MVPD \"\(id)\" in the scenario's world")
        }
        return id
    }
}
