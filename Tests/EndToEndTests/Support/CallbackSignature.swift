import AccessEnabler
import AccessEnablerScenarios
import Foundation

/// A compact, exact form of one callback for sequence assertions: the name and the
/// arguments that identify it, leaving out what varies run to run (session codes, media
/// tokens, ports, status messages).
///
/// - `setRequestorComplete(1)`, `setAuthenticationStatus(0,User Not Authenticated Error)`
/// - `status(N003,info)`
/// - `displayProviderDialog(AppleBoarded,PickerOnly,…)`
/// - `navigateToUrl(authenticate)` / `navigateToUrl(logout)` / `navigateToUrl(authenticate,svc)`
/// - `presentTVProviderDialog(AppleBoarded,PickerOnly|featured:…)`
/// - `setToken(news)`, `tokenRequestFailed(news,User not Authorized Error)`
/// - `sendTrackingData(0,true,AppleBoarded)` (event, success, MVPD)
/// - `setMetadataStatus(3,false,"Apple")`, `preauthorizedResources(news,sports)`, `selectedProvider(AppleBoarded)`
enum CallbackSignature {
    static func of(_ line: TranscriptLine) -> String? {
        guard let name = line.callback else { return nil }
        func string(_ key: String) -> String { line[key]?.stringValue ?? line[key]?.compactText ?? "nil" }
        func list(_ key: String) -> String {
            guard case .array(let items)? = line[key] else { return "" }
            return items.map { $0.stringValue ?? $0.compactText }.joined(separator: ",")
        }
        switch name {
        case "setRequestorComplete": return "setRequestorComplete(\(string("status")))"
        case "setAuthenticationStatus": return "setAuthenticationStatus(\(string("status")),\(string("errorCode")))"
        case "status": return "status(\(string("errorId")),\(string("level")))"
        case "displayProviderDialog": return "displayProviderDialog(\(list("mvpds")))"
        case "navigateToUrl":
            let url = string("url")
            let kind = url.contains("/authenticate/") ? "authenticate" : (url.contains("logout") ? "logout" : url)
            if case .bool(let svc)? = line["useSVC"] { return "navigateToUrl(\(kind),\(svc ? "svc" : "nosvc"))" }
            return "navigateToUrl(\(kind))"
        case "presentTVProviderDialog", "dismissTVProviderDialog":
            return "\(name)(\(list("providers"))|featured:\(list("featured")))"
        case "setToken": return "setToken(\(string("resource")))"
        case "tokenRequestFailed": return "tokenRequestFailed(\(string("resource")),\(string("errorCode")))"
        case "sendTrackingData":
            guard case .array(let data)? = line["data"] else { return "sendTrackingData(\(string("event")))" }
            let head = data.prefix(string("event") == "2" ? 1 : 2).map { $0.stringValue ?? $0.compactText }
            return "sendTrackingData(\(string("event")),\(head.joined(separator: ",")))"
        case "setMetadataStatus":
            return
                "setMetadataStatus(\(string("key")),\(string("encrypted")),\(line["metadata"]?.compactJSON ?? "null"))"
        case "preauthorizedResources": return "preauthorizedResources(\(list("resources")))"
        case "selectedProvider": return "selectedProvider(\(string("mvpd")))"
        case "preauthorize": return "preauthorize"
        default: return name
        }
    }
}

extension CallbackRecorder {
    /// The signatures of every callback recorded so far.
    var signatures: [String] { callbacks.compactMap(CallbackSignature.of) }

    /// The signatures recorded since the last call, then forgets them.
    func takeSignatures() -> [String] {
        let taken = signatures
        reset()
        return taken
    }
}
