import Foundation

/// One delegate callback, as a value: what the flows produce and the dispatcher delivers.
/// Keeping callbacks as values lets the flows stay free of delegate plumbing and lets
/// test rigs record exactly what was delivered. `package`: the scenario transcript
/// (`CallbackRecorder`) records every callback through this value, so a new case is a
/// compiler error there too.
package enum DelegateCall: Sendable {
    case setRequestorComplete(Int32)
    case setAuthenticationStatus(Int32, errorCode: String)
    case displayProviderDialog([MVPD])
    case navigateToUrl(String)
    case navigateToUrlUsingSVC(String, useSVC: Bool)
    case presentTVProviderDialog(TVProviderDialog)
    case dismissTVProviderDialog(TVProviderDialog)
    case setToken(String, resource: String)
    case tokenRequestFailed(String, errorCode: String, description: String)
    case selectedProvider(MVPD?)
    case setMetadataStatus(JSONValue?, encrypted: Bool, key: Int32, arguments: MetadataArguments)
    case preauthorizedResources([String])
    case sendTrackingData([String], event: Int32)
    case status(AdvancedStatus)
    /// The Preauthorize API's answer for the callback object the app passed.
    case preauthorizeResult(PreauthorizeOutcome, AccessEnablerCallback<PreauthorizeResponse>)

    /// Which callback a ``DelegateCall`` is, without its arguments: `CaseIterable`, so tests
    /// and lists of callbacks enumerate every case (``DelegateCall/name`` maps each call
    /// with no `default`, so a new callback must be added here).
    package enum Name: String, CaseIterable, Sendable {
        case setRequestorComplete
        case setAuthenticationStatus
        case displayProviderDialog
        case navigateToUrl
        case navigateToUrlUsingSVC
        case presentTVProviderDialog
        case dismissTVProviderDialog
        case setToken
        case tokenRequestFailed
        case selectedProvider
        case setMetadataStatus
        case preauthorizedResources
        case sendTrackingData
        case status
        case preauthorizeResult

        /// The terminal callback this is (``CallbackDiagnostics`` reports its absence), or
        /// `nil`: no `default`, so a new callback needs a decision here, and a test checks
        /// every ``TerminalCallback`` is some callback's.
        var terminal: TerminalCallback? {
            switch self {
            case .setRequestorComplete: .setRequestorComplete
            case .setAuthenticationStatus: .setAuthenticationStatus
            case .displayProviderDialog: .displayProviderDialog
            case .navigateToUrl: .navigateToUrl
            case .navigateToUrlUsingSVC: .navigateToUrlUsingSVC
            case .setToken: .setToken
            case .tokenRequestFailed: .tokenRequestFailed
            case .selectedProvider: .selectedProvider
            case .setMetadataStatus: .setMetadataStatus
            case .preauthorizedResources: .preauthorizedResources
            case .presentTVProviderDialog, .dismissTVProviderDialog, .sendTrackingData, .status, .preauthorizeResult:
                nil
            }
        }

        /// Whether the callback ends the call it answers: a terminal delegate callback
        /// (``terminal``), or the Preauthorize API's answer to its callback object. Test rigs
        /// that look for the end of each call read this, not a list of their own.
        package var endsACall: Bool {
            terminal != nil || self == .preauthorizeResult
        }

        /// The callback's name as Adobe's documentation writes it (the first part of its
        /// selector), and so as the scenario transcript and ``AccessEnablerEvent/Kind`` spell
        /// it: the case's own name (its raw value), except that both forms of `navigateToUrl`
        /// are `navigateToUrl` and the Preauthorize API's answer is `preauthorize`. The one
        /// place a callback's name is spelled.
        package var callbackName: String {
            switch self {
            case .navigateToUrlUsingSVC: "navigateToUrl"
            case .preauthorizeResult: "preauthorize"
            default: rawValue
            }
        }
    }

    /// Which callback this is.
    package var name: Name {
        switch self {
        case .setRequestorComplete: .setRequestorComplete
        case .setAuthenticationStatus: .setAuthenticationStatus
        case .displayProviderDialog: .displayProviderDialog
        case .navigateToUrl: .navigateToUrl
        case .navigateToUrlUsingSVC: .navigateToUrlUsingSVC
        case .presentTVProviderDialog: .presentTVProviderDialog
        case .dismissTVProviderDialog: .dismissTVProviderDialog
        case .setToken: .setToken
        case .tokenRequestFailed: .tokenRequestFailed
        case .selectedProvider: .selectedProvider
        case .setMetadataStatus: .setMetadataStatus
        case .preauthorizedResources: .preauthorizedResources
        case .sendTrackingData: .sendTrackingData
        case .status: .status
        case .preauthorizeResult: .preauthorizeResult
        }
    }

    /// Delivers this callback to the delegates that are still alive, always in today's
    /// spelling: its default implementation forwards to the legacy spelling, so a delegate
    /// written either way receives it once.
    ///
    /// Most spellings share a name, so each call must reach today's overload. Every argument
    /// below has exactly today's type (`String`, `[MVPD]`, `[String]`, `[String: Any]`,
    /// `AdvancedStatus`); the legacy overloads (`String!`, `[Any]!`, `[AnyHashable: Any]!`)
    /// accept those only through a conversion, which Swift ranks below an exact match. The
    /// one pair with the same type (`MVPD?` and `MVPD!`) is told apart by viewing the delegate
    /// as ``SelectedProviderDelegate``, where only today's spelling exists. The legacy-port
    /// tests check each callback reaches a delegate written in either spelling exactly once.
    func deliver(to delegate: EntitlementDelegate?, statusDelegate: EntitlementStatus?) {
        switch self {
        case .setRequestorComplete(let status): delegate?.setRequestorComplete(status)
        case .setAuthenticationStatus(let status, let code): delegate?.setAuthenticationStatus(status, errorCode: code)
        case .displayProviderDialog(let mvpds): delegate?.displayProviderDialog(mvpds)
        case .navigateToUrl(let url): delegate?.navigateToUrl(url)
        case .navigateToUrlUsingSVC(let url, let useSVC): delegate?.navigateToUrl(url, useSVC: useSVC)
        case .presentTVProviderDialog(let dialog): delegate?.presentTVProviderDialog(dialog)
        case .dismissTVProviderDialog(let dialog): delegate?.dismissTVProviderDialog(dialog)
        case .setToken(let token, let resource): delegate?.setToken(token, forResource: resource)
        case .tokenRequestFailed(let resource, let code, let description):
            delegate?.tokenRequestFailed(resource, errorCode: code, errorDescription: description)
        case .selectedProvider(let mvpd):
            let receiver: (any SelectedProviderDelegate)? = delegate
            receiver?.selectedProvider(mvpd)
        case .setMetadataStatus(let value, let encrypted, let key, let arguments):
            delegate?.setMetadataStatus(
                value?.foundationValue, encrypted: encrypted, forKey: key, andArguments: arguments.dictionary)
        case .preauthorizedResources(let resources): delegate?.preauthorizedResources(resources)
        case .sendTrackingData(let data, let event): delegate?.sendTrackingData(data, forEventType: event)
        case .status(let status): statusDelegate?.status(status)
        case .preauthorizeResult(let outcome, let callback): outcome.deliver(to: callback)
        }
    }
}

/// The caller's `getMetadata` dictionary, carried to the callback unchanged. Its values are
/// whatever the caller passed (`Any`), which the type system cannot prove sendable; the
/// dictionary is never mutated after capture, so handing it across is safe.
package struct MetadataArguments: @unchecked Sendable {
    /// The dictionary as the caller passed it.
    package let dictionary: [String: Any]

    /// Carries `dictionary`.
    package init(dictionary: [String: Any]) {
        self.dictionary = dictionary
    }
}
