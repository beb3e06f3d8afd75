import AccessEnabler
import Foundation

/// The verbs of `accessenabler provider-service` that ask the running service: one request
/// line each on its socket, the answer printed for a person (or as it came, with `--json`).
enum ProviderServiceAdmin {
    /// Seconds the service has to answer.
    static let answerTimeout: TimeInterval = 15

    static func run(verb: String, _ arguments: [String], synopsis: CommandSynopsis, help: String) async -> Int32 {
        let parsed: ParsedArguments
        switch CommandArguments(arguments, synopsis: synopsis, help: help) {
        case .exit(let code): return code
        case .run(let arguments): parsed = arguments
        }
        let command = "accessenabler \(synopsis.name)"
        guard let socket = parsed.values["--socket"] ?? DeviceProviderService.defaultSocketPath() else {
            printError("\(command): XDG_RUNTIME_DIR is not set: name the service's socket with --socket PATH.")
            return 2
        }
        var request: [String: Any] = ["v": 1, "id": 1]
        switch verb {
        case "status": request["op"] = "status"
        case "signin": request["op"] = "signIn"
        case "signout": request["op"] = "signOut"
        default:
            guard let requestor = parsed.values["--requestor"], let name = parsed.values["--name"] else {
                printError("\(command): --requestor ID and --name NAME name the app.\n\n\(help)")
                return 2
            }
            request["op"] = verb
            request["app"] = ["requestor": requestor, "name": name]
        }
        guard case .success(let answer) = await ask(request, socket: socket, command: command) else { return 1 }
        if parsed.flags.contains("--json") {
            print(answer.line)
            return 0
        }
        let object = answer.object
        switch verb {
        case "status":
            print(describeStatus(object))
        case "signin":
            guard let signIn = object["signIn"] as? [String: Any] else { return 1 }
            print(
                "Open \(signIn["url"] as? String ?? "?") on a phone or computer and type the code "
                    + "\(signIn["code"] as? String ?? "?")"
                    + " (valid until \(time(signIn["expiresAt"]))).")
            fflush(nil)
            if parsed.flags.contains("--wait") { return await waitForTheSignIn(socket: socket, command: command) }
        case "signout":
            print(
                object["wasSignedIn"] as? Bool == true
                    ? "Signed out: every app sees it at its next check." : "Nobody was signed in.")
        default:
            print(
                "\(parsed.values["--name"] ?? "") (\(parsed.values["--requestor"] ?? "")): "
                    + "\(object["accessStatus"] as? String ?? "?")"
            )
        }
        return 0
    }

    /// Asks `status` every 2 s until no sign-in is under way; says how it ended.
    private static func waitForTheSignIn(socket: String, command: String) async -> Int32 {
        while true {
            try? await Task.sleep(nanoseconds: 2_000_000_000)
            guard
                case .success(let answer) = await ask(
                    ["v": 1, "id": 1, "op": "status"], socket: socket, command: command)
            else { return 1 }
            guard answer.object["signIn"] is NSNull || answer.object["signIn"] == nil else { continue }
            if let household = answer.object["household"] as? [String: Any] {
                print("The household is signed in to \(household["providerName"] as? String ?? "?").")
                return 0
            }
            print("The sign-in ended without a sign-in.")
            return 1
        }
    }

    /// One request, one answer: the answer when it is `ok`, else the reason printed.
    private static func ask(_ request: [String: Any], socket: String, command: String) async -> Result<
        (line: String, object: [String: Any]), Failure
    > {
        guard let data = try? JSONSerialization.data(withJSONObject: request, options: [.sortedKeys]) else {
            return .failure(Failure())
        }
        let line = String(decoding: data, as: UTF8.self)
        switch await ProviderServiceSocket.exchange(
            path: socket, line: line, connectTimeout: 2, answerTimeout: answerTimeout)
        {
        case .failure(let failure):
            printError("\(command): \(failure.message)")
            return .failure(Failure())
        case .success(let bytes):
            let text = String(decoding: bytes, as: UTF8.self)
            guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any],
                let ok = object["ok"] as? Bool
            else {
                printError("\(command): the service answered something that is not its protocol: \(text.prefix(200))")
                return .failure(Failure())
            }
            guard ok else {
                let error = object["error"] as? [String: Any]
                printError(
                    "\(command): the service refused "
                        + "(\(error?["code"] as? String ?? "?")): \(error?["message"] as? String ?? text)"
                )
                return .failure(Failure())
            }
            return .success((text, object))
        }
    }

    private struct Failure: Error {}

    /// The `status` answer for a person.
    static func describeStatus(_ object: [String: Any]) -> String {
        var lines: [String] = []
        if let household = object["household"] as? [String: Any] {
            lines.append(
                "Household: signed in to "
                    + "\(household["providerName"] as? String ?? "?") (\(household["provider"] as? String ?? "?"))"
                    + " until \(time(household["expiresAt"])).")
        } else {
            lines.append("Household: not signed in to a TV provider.")
        }
        if let signIn = object["signIn"] as? [String: Any] {
            lines.append(
                "Sign-in under way: open "
                    + "\(signIn["url"] as? String ?? "?") and type \(signIn["code"] as? String ?? "?")"
                    + " (until \(time(signIn["expiresAt"]))).")
        }
        let permissions = object["permissions"] as? [[String: Any]] ?? []
        lines.append(permissions.isEmpty ? "Apps: none has a permission on record." : "Apps:")
        for entry in permissions {
            let (name, requestor) = (entry["name"] as? String ?? "?", entry["requestor"] as? String ?? "?")
            lines.append("  \(name) (\(requestor)): \(entry["accessStatus"] as? String ?? "?")")
        }
        return lines.joined(separator: "\n")
    }

    /// Milliseconds since 1970 as an ISO 8601 time, or `?`.
    private static func time(_ value: Any?) -> String {
        guard let number = value as? NSNumber, number.doubleValue.isFinite else { return "?" }
        return ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: number.doubleValue / 1_000))
    }
}
