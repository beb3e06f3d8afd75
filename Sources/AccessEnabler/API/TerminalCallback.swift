import Foundation

/// A delegate callback that ends a call or hands it over to the app: if the delegate does
/// not receive it, the app waits forever. These are the callbacks whose absence
/// ``CallbackDiagnostics`` reports.
///
/// A list kept by hand beside ``DelegateCall``, guarded both ways: ``DelegateCall/Name/terminal``
/// decides for every callback whether it is terminal (no `default`, so a new callback is a
/// compiler error there), and `CallbackRecorderCoverageTests` fails unless every case here is
/// exactly one callback's. The raw names are the case names (the legacy selector names);
/// ``name`` spells the one that differs.
enum TerminalCallback: String, CaseIterable, Sendable {
    case setRequestorComplete
    case setAuthenticationStatus
    case displayProviderDialog
    case navigateToUrl
    case navigateToUrlUsingSVC
    case setToken
    case tokenRequestFailed
    case selectedProvider
    case setMetadataStatus
    case preauthorizedResources

    /// The callback's name as the documentation writes it.
    var name: String {
        switch self {
        case .navigateToUrlUsingSVC: "navigateToUrl:useSVC:"
        default: rawValue
        }
    }

    /// The declaration in today's spelling (``EntitlementDelegate``).
    var currentSpelling: String {
        switch self {
        case .setRequestorComplete: "func setRequestorComplete(_ status: Int32)"
        case .setAuthenticationStatus: "func setAuthenticationStatus(_ status: Int32, errorCode code: String)"
        case .displayProviderDialog: "func displayProviderDialog(_ mvpds: [MVPD])"
        case .navigateToUrl: "func navigateToUrl(_ url: String)"
        case .navigateToUrlUsingSVC: "func navigateToUrl(_ url: String, useSVC: Bool)"
        case .setToken: "func setToken(_ token: String, forResource resource: String)"
        case .tokenRequestFailed:
            "func tokenRequestFailed(_ resource: String, errorCode code: String, errorDescription description: String)"
        case .selectedProvider: "func selectedProvider(_ mvpd: MVPD?)"
        case .setMetadataStatus:
            "func setMetadataStatus(_ metadata: Any?, encrypted: Bool, forKey key: Int32, andArguments arguments: [String: Any])"
        case .preauthorizedResources: "func preauthorizedResources(_ resources: [String])"
        }
    }

    /// The declaration as Swift imports Adobe's Objective-C header
    /// (``EntitlementDelegateLegacySpellings``); `nil` when it is the same as today's.
    var legacySpelling: String? {
        switch self {
        case .setRequestorComplete: nil
        case .setAuthenticationStatus: "func setAuthenticationStatus(_ status: Int32, errorCode code: String!)"
        case .displayProviderDialog: "func displayProviderDialog(_ mvpds: [Any]!)"
        case .navigateToUrl: "func navigate(toUrl url: String!)"
        case .navigateToUrlUsingSVC: "func navigate(toUrl url: String!, useSVC: Bool)"
        case .setToken: "func setToken(_ token: String!, forResource resource: String!)"
        case .tokenRequestFailed:
            "func tokenRequestFailed(_ resource: String!, errorCode code: String!, errorDescription description: String!)"
        case .selectedProvider: "func selectedProvider(_ mvpd: MVPD!)"
        case .setMetadataStatus:
            "func setMetadataStatus(_ metadata: Any!, encrypted: Bool, forKey key: Int32, andArguments arguments: [AnyHashable: Any]!)"
        case .preauthorizedResources: "func preauthorizedResources(_ resources: [Any]!)"
        }
    }

    /// Both accepted declarations, today's first.
    var acceptedSpellings: [String] { [currentSpelling] + (legacySpelling.map { [$0] } ?? []) }
}
