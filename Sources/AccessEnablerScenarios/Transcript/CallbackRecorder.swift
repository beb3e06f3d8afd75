import AccessEnabler
import Foundation

/// An ``EntitlementDelegate`` and ``EntitlementStatus`` that turns every callback into a
/// ``TranscriptLine`` (with the keys of its callback), keeps them in order, and hands each
/// to an optional observer as it arrives. Tests assert on ``lines``; the command line prints them.
///
/// Several apps of one scenario share one transcript: each has a recorder of its own
/// (``recorder(forApp:)``), whose lines carry `"app": "<name>"`; the top-level app's carry
/// `"app": "A"` when it was made with that name (the scenario runner does so when a
/// scenario has several apps), and no `app` key otherwise.
public final class CallbackRecorder: EntitlementDelegate, EntitlementStatus, @unchecked Sendable {
    private let lock = NSLock()
    private let transcript: SharedTranscript
    private var lastNavigation: String?
    private var lastHandOverValue: HandOver?
    private var logoutPageURLs: [String] = []
    private let revealSecrets: Bool
    /// The name its lines carry as `"app"`: the app whose callbacks this recorder receives;
    /// `nil` for a top-level app whose lines carry none.
    public let app: String?

    /// Creates a recorder; `observer` sees each line as it is recorded.
    ///
    /// - Parameters:
    ///   - revealSecrets: `false` (the default, for anything printed or saved) replaces media
    ///     tokens with a marker that gives only their length; test rigs that verify the token
    ///     itself pass `true`.
    ///   - app: the name its lines carry as `"app"` (`nil`, the default: none).
    public init(observer: (@Sendable (TranscriptLine) -> Void)? = nil, revealSecrets: Bool = false, app: String? = nil)
    {
        self.transcript = SharedTranscript(observer: observer)
        self.revealSecrets = revealSecrets
        self.app = app
    }

    private init(sharing transcript: SharedTranscript, app: String, revealSecrets: Bool) {
        self.transcript = transcript
        self.revealSecrets = revealSecrets
        self.app = app
    }

    /// A recorder for another app of the same run: its lines go into this recorder's
    /// transcript, each carrying `"app": name`. Its hand-overs and counts are its own.
    public func recorder(forApp name: String) -> CallbackRecorder {
        CallbackRecorder(sharing: transcript, app: name, revealSecrets: revealSecrets)
    }

    /// The marker a transcript shows instead of a media token.
    public static func redacted(_ secret: String) -> String { "<media token, \(secret.count) characters, redacted>" }

    /// Every line recorded so far, in arrival order (those of every app sharing the transcript).
    public var lines: [TranscriptLine] { transcript.lines }

    /// The lines of this recorder's app only.
    public var ownLines: [TranscriptLine] {
        let tag = app.map(JSONValue.string)
        return lines.filter { $0["app"] == tag }
    }

    /// The callback lines only (no step markers or HTTP traces).
    public var callbacks: [TranscriptLine] { lines.filter { $0.callback != nil } }

    /// The URL of the most recent `navigateToUrl`, if any.
    public var lastNavigationURL: String? { lock.withLock { lastNavigation } }

    /// Where the SDK last handed the MVPD login to the person.
    public enum HandOver: Sendable, Equatable {
        /// `navigateToUrl`: the login page on this device.
        case page(url: String)
        /// Status `REGCODE`: the registration code to enter on a second screen.
        case registrationCode(String)
    }

    /// The most recent login hand-over (`navigateToUrl` or `REGCODE`), if any.
    public var lastHandOver: HandOver? { lock.withLock { lastHandOverValue } }

    /// The URLs of the `LOGOUT_PAGE` statuses received since the last ``takeLogoutPages()``, in order.
    public var logoutPages: [String] { lock.withLock { logoutPageURLs } }

    /// The URLs of the `LOGOUT_PAGE` statuses received so far, which are then forgotten.
    public func takeLogoutPages() -> [String] {
        lock.withLock {
            defer { logoutPageURLs.removeAll() }
            return logoutPageURLs
        }
    }

    /// How many `setAuthenticationStatus` callbacks this recorder's app received so far.
    public var authenticationStatusCount: Int {
        ownLines.filter { $0.callback == DelegateCall.Name.setAuthenticationStatus.callbackName }.count
    }

    /// Forgets the lines recorded so far, every app's (the last navigation URL stays: a
    /// `login` step after a reset still knows where the web view is).
    public func reset() { transcript.reset() }

    /// Adds a line that is not a callback (a step marker, an HTTP trace), tagged with this
    /// recorder's app.
    public func append(_ line: TranscriptLine) {
        var tagged = line
        if let app { tagged.fields.append(("app", .string(app))) }
        transcript.append(tagged)
    }

    /// Adds a line about the whole run (the checklist's findings), untagged whatever the
    /// recorder's app.
    func appendRunLine(_ line: TranscriptLine) {
        transcript.append(line)
    }

    private func record(_ name: String, _ fields: [(key: String, value: JSONValue)]) {
        append(TranscriptLine([("callback", .string(name))] + fields))
    }

    /// Records one delegate callback under its name (``DelegateCall/Name/callbackName``, the
    /// one place callback names are spelled). Every delegate method below hands its callback
    /// here as the SDK's own value, and ``fields(of:)`` has no `default`: a callback the SDK
    /// adds is a compiler error there until the transcript says how it is written
    /// (`CallbackRecorderCoverageTests` checks each reaches a line).
    private func record(_ call: DelegateCall) {
        guard let fields = fields(of: call) else { return }
        record(call.name.callbackName, fields)
    }

    /// The keys of the transcript line of `call`, and what the recorder learns from it (the
    /// last hand-over, the logout pages); `nil` for a call that is not a delegate's.
    private func fields(of call: DelegateCall) -> [(key: String, value: JSONValue)]? {
        switch call {
        case .setRequestorComplete(let status):
            return [("status", .number(Double(status)))]
        case .setAuthenticationStatus(let status, let code):
            return [("status", .number(Double(status))), ("errorCode", .string(code))]
        case .displayProviderDialog(let mvpds):
            return [("mvpds", .array(mvpds.map { .string($0.id) }))]
        case .navigateToUrl(let url):
            handedOver(to: url)
            return [("url", .string(url))]
        case .navigateToUrlUsingSVC(let url, let useSVC):
            handedOver(to: url)
            return [("url", .string(url)), ("useSVC", .bool(useSVC))]
        case .presentTVProviderDialog(let dialog), .dismissTVProviderDialog(let dialog):
            return [
                ("providers", .array(dialog.providers.map { .string($0) })),
                ("featured", .array(dialog.featured.map { .string($0) })),
            ]
        case .setToken(let token, let resource):
            return [("token", .string(revealSecrets ? token : Self.redacted(token))), ("resource", .string(resource))]
        case .tokenRequestFailed(let resource, let code, let description):
            return [
                ("resource", .string(resource)), ("errorCode", .string(code)),
                ("errorDescription", .string(description)),
            ]
        case .selectedProvider(let mvpd):
            return [("mvpd", mvpd.map { .string($0.id) } ?? .null)]
        case .setMetadataStatus(let metadata, let encrypted, let key, let arguments):
            return [
                ("key", .number(Double(key))), ("encrypted", .bool(encrypted)), ("metadata", metadata ?? .null),
                ("arguments", JSONValue(foundation: arguments.dictionary)),
            ]
        case .preauthorizedResources(let resources):
            return [("resources", .array(resources.map { .string($0) }))]
        case .sendTrackingData(let data, let event):
            return [("event", .number(Double(event))), ("data", .array(data.map { .string($0) }))]
        case .status(let status):
            if status.errorId == .regcode, let code = status.details {
                lock.withLock { lastHandOverValue = .registrationCode(code) }
            }
            if status.errorId == .logoutPage, let url = status.details {
                lock.withLock { logoutPageURLs.append(url) }
            }
            var fields: [(key: String, value: JSONValue)] = [
                ("errorId", .string(status.errorId.description)), ("level", .string(status.level.rawValue)),
            ]
            if let message = status.message { fields.append(("message", .string(message))) }
            if let details = status.details { fields.append(("details", .string(details))) }
            return fields
        case .preauthorizeResult:
            // Answered to the app's callback object, not to a delegate: the runner records it
            // with ``recordPreauthorize(_:failure:)``.
            return nil
        }
    }

    /// The login page at `url` was handed to the person.
    private func handedOver(to url: String) {
        lock.withLock {
            lastNavigation = url
            lastHandOverValue = .page(url: url)
        }
    }

    // MARK: EntitlementDelegate

    /// Records `setRequestorComplete` as a transcript line.
    public func setRequestorComplete(_ status: Int32) { record(.setRequestorComplete(status)) }

    /// Records `setAuthenticationStatus` as a transcript line.
    public func setAuthenticationStatus(_ status: Int32, errorCode code: String) {
        record(.setAuthenticationStatus(status, errorCode: code))
    }

    /// Records `displayProviderDialog` as a transcript line.
    public func displayProviderDialog(_ mvpds: [MVPD]) { record(.displayProviderDialog(mvpds)) }

    /// Records `navigateToUrl` as a transcript line.
    public func navigateToUrl(_ url: String) { record(.navigateToUrl(url)) }

    /// Records `navigateToUrl` as a transcript line.
    public func navigateToUrl(_ url: String, useSVC: Bool) { record(.navigateToUrlUsingSVC(url, useSVC: useSVC)) }

    /// Records `presentTVProviderDialog` as a transcript line.
    public func presentTVProviderDialog(_ dialog: TVProviderDialog) { record(.presentTVProviderDialog(dialog)) }

    /// Records `dismissTVProviderDialog` as a transcript line.
    public func dismissTVProviderDialog(_ dialog: TVProviderDialog) { record(.dismissTVProviderDialog(dialog)) }

    /// Records `setToken` as a transcript line.
    public func setToken(_ token: String, forResource resource: String) { record(.setToken(token, resource: resource)) }

    /// Records `tokenRequestFailed` as a transcript line.
    public func tokenRequestFailed(_ resource: String, errorCode code: String, errorDescription description: String) {
        record(.tokenRequestFailed(resource, errorCode: code, description: description))
    }

    /// Records `selectedProvider` as a transcript line.
    public func selectedProvider(_ mvpd: MVPD?) { record(.selectedProvider(mvpd)) }

    /// Records `setMetadataStatus` as a transcript line.
    public func setMetadataStatus(
        _ metadata: Any?, encrypted: Bool, forKey key: Int32, andArguments arguments: [String: Any]
    ) {
        record(
            .setMetadataStatus(
                metadata.map { JSONValue(foundation: $0) }, encrypted: encrypted, key: key,
                arguments: MetadataArguments(dictionary: arguments)))
    }

    /// Records `preauthorizedResources` as a transcript line.
    public func preauthorizedResources(_ resources: [String]) { record(.preauthorizedResources(resources)) }

    /// Records `sendTrackingData` as a transcript line.
    public func sendTrackingData(_ data: [String], forEventType event: Int32) {
        record(.sendTrackingData(data, event: event))
    }

    // MARK: Preauthorize API

    /// Records the Preauthorize API's answer: `result` (`response` or `failure`), the
    /// decisions (`id`, `authorized`, and `error.code` when denied with a reason) and the
    /// `status` code when there is one.
    public func recordPreauthorize(_ response: PreauthorizeResponse, failure: Bool) {
        var fields: [(key: String, value: JSONValue)] = [("result", .string(failure ? "failure" : "response"))]
        fields.append(
            (
                "resources",
                .array(
                    response.decisions.map { decision in
                        var entry: [String: JSONValue] = [
                            "id": .string(decision.id), "authorized": .bool(decision.authorized),
                        ]
                        if let code = decision.error?.code { entry["error"] = .object(["code": .string(code)]) }
                        return .object(entry)
                    })
            ))
        if let status = response.status {
            var entry: [String: JSONValue] = ["status": .number(Double(status.status))]
            if let code = status.code { entry["code"] = .string(code) }
            if let message = status.message { entry["message"] = .string(message) }
            fields.append(("status", .object(entry)))
        }
        record(DelegateCall.Name.preauthorizeResult.callbackName, fields)
    }

    // MARK: EntitlementStatus

    /// Records an advanced status as a transcript line.
    public func status(_ status: AdvancedStatus) { record(.status(status)) }
}

/// The lines of one run, in arrival order, shared by the recorders of its apps.
private final class SharedTranscript: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [TranscriptLine] = []
    private let observer: (@Sendable (TranscriptLine) -> Void)?

    init(observer: (@Sendable (TranscriptLine) -> Void)?) { self.observer = observer }

    var lines: [TranscriptLine] { lock.withLock { recorded } }

    func reset() { lock.withLock { recorded.removeAll() } }

    /// Records `line` and shows it to the observer. (The runner's apps share one callback
    /// queue, so lines arrive one at a time, in the transcript's order.)
    func append(_ line: TranscriptLine) {
        lock.withLock { recorded.append(line) }
        observer?(line)
    }
}
