import Foundation

/// A facade call, queued for the engine. The facade turns each public method into one
/// command and returns at once; the engine runs commands one at a time, in call order.
enum Command: Sendable {
    case setOptions(SDKOptions)
    case setRequestor(String, serviceProviders: [String]?)
    case checkAuthentication
    case getAuthentication(forceAuthn: Bool, data: [String: String]?, filter: PickerFilter?)
    case setSelectedProvider(String?)
    case handleExternalURL(String)
    case checkAuthorization(String, data: [String: String]?)
    case getAuthorization(String, data: [String: String]?)
    case checkPreauthorizedResources([String], cache: Bool)
    case logout
    case getSelectedProvider
    case getMetadata(MetadataQuery, arguments: MetadataArguments)
    case preauthorize(PreauthorizeRequest, AccessEnablerCallback<PreauthorizeResponse>)
    /// ``AccessEnabler/selectProfile(mvpd:)``: the profile of this MVPD is the one in force
    /// from this call on (no callback, no request).
    case selectProfile(String)
}

extension Command {
    /// The call as the delegate API names it (`setRequestor(_:)`, `getAuthentication()`).
    var legacyName: String {
        switch self {
        case .setOptions: "setOptions(_:)"
        case .setRequestor(_, nil): "setRequestor(_:)"
        case .setRequestor: "setRequestor(_:serviceProviders:)"
        case .checkAuthentication: "checkAuthentication()"
        case .getAuthentication: "getAuthentication()"
        case .setSelectedProvider: "setSelectedProvider(_:)"
        case .handleExternalURL: "handleExternalURL(_:)"
        case .checkAuthorization: "checkAuthorization(_:)"
        case .getAuthorization: "getAuthorization(_:)"
        case .checkPreauthorizedResources: "checkPreauthorizedResources(_:)"
        case .logout: "logout()"
        case .getSelectedProvider: "getSelectedProvider()"
        case .getMetadata: "getMetadata(_:)"
        case .preauthorize: "preauthorize(_:didCompleteWith:)"
        case .selectProfile: "selectProfile(mvpd:)"
        }
    }

    /// The delegate callback that answers the call, or `nil` when none does (setOptions
    /// answers nothing; the Preauthorize API answers its own callback).
    var delegateAnswer: String? {
        switch self {
        case .setOptions, .preauthorize, .selectProfile: nil
        case .setRequestor: "setRequestorComplete"
        case .checkAuthentication, .logout: "setAuthenticationStatus"
        case .getAuthentication, .setSelectedProvider, .handleExternalURL:
            "setAuthenticationStatus, or a hand-over such as displayProviderDialog"
        case .checkAuthorization, .getAuthorization: "setToken or tokenRequestFailed"
        case .checkPreauthorizedResources: "preauthorizedResources"
        case .getSelectedProvider: "selectedProvider"
        case .getMetadata: "setMetadataStatus"
        }
    }
}

/// The options of `setOptions`, typed.
struct SDKOptions: Sendable, Equatable {
    var applicationProfile: String?
    var visitorID: String?
    var handleSVC: Bool = false
    /// The caller's `device_info`: base64-encoded JSON client information.
    var deviceInfo: String?

    /// The keys the SDK reads: the iOS/tvOS SDK's, and `ap_vi`, the Android SDK's spelling
    /// of the visitor id. Any other key is reported (``unusedKeys(_:)``), never used.
    static let knownKeys: Set<String> = ["applicationProfile", "visitorID", "ap_vi", "handleSVC", "device_info"]

    /// The keys of `dictionary` the SDK does not use, sorted.
    static func unusedKeys(_ dictionary: [String: Any]) -> [String] {
        dictionary.keys.filter { !knownKeys.contains($0) }.sorted()
    }

    /// Reads the legacy options dictionary; keys it does not know are left out (the facade
    /// reports them).
    init(dictionary: [String: Any], previous: SDKOptions = SDKOptions()) {
        self = previous
        if let value = dictionary["applicationProfile"] as? String { applicationProfile = value }
        if let value = dictionary["ap_vi"] as? String { visitorID = value }
        if let value = dictionary["visitorID"] as? String { visitorID = value }
        if let value = dictionary["handleSVC"] {
            if let bool = value as? Bool {
                handleSVC = bool
            } else if let number = value as? NSNumber {
                handleSVC = number.boolValue
            } else if let text = value as? String {
                handleSVC = (text as NSString).boolValue
            }
        }
        if let value = dictionary["device_info"] as? String { deviceInfo = value }
    }

    init() {}
}

/// A parsed `getMetadata` request.
enum MetadataQuery: Sendable, Equatable {
    case authentication
    case authorization(resource: String?)
    case deviceID
    case userMeta(name: String?)
    case unknown(opcode: Int32?)

    /// The operation code echoed in `setMetadataStatus(forKey:)`.
    var key: Int32 {
        switch self {
        case .authentication: METADATA_AUTHENTICATION
        case .authorization: METADATA_AUTHORIZATION
        case .deviceID: METADATA_DEVICE_ID
        case .userMeta: METADATA_USER_META
        case .unknown(let opcode): opcode ?? -1
        }
    }

    /// Reads the legacy dictionary; opcodes may be `Int`, `Int32`, `NSNumber` or a numeric string.
    init(dictionary: [String: Any]) {
        let opcode = MetadataQuery.integer(dictionary[METADATA_OPCODE_KEY])
        switch opcode {
        case METADATA_AUTHENTICATION: self = .authentication
        case METADATA_AUTHORIZATION: self = .authorization(resource: dictionary[METADATA_RESOURCE_ID_KEY] as? String)
        case METADATA_DEVICE_ID: self = .deviceID
        case METADATA_USER_META: self = .userMeta(name: dictionary[METADATA_USER_META_KEY] as? String)
        default: self = .unknown(opcode: opcode)
        }
    }

    private static func integer(_ value: Any?) -> Int32? {
        switch value {
        case let v as Int32: v
        case let v as Int: Int32(exactly: v)
        case let v as Int64: Int32(exactly: v)
        case let v as UInt: Int32(exactly: v)
        case let v as Double: Int32(exactly: v)
        // Not `int32Value`: an NSNumber of 1e300 or NaN has no Int32, and asking for one is undefined.
        case let v as NSNumber: Int32(exactly: v.doubleValue)
        case let v as String: Int32(v)
        default: nil
        }
    }
}
