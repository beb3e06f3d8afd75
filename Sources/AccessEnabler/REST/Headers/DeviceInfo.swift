import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The streaming device's description sent in the `X-Device-Info` header: the
/// Base64-encoded JSON object whose keys are listed by the header's documentation.
///
/// Adobe Pass selects platform-specific rules (including partner single sign-on) from
/// these values, so the required keys must be present and restricted keys must hold one
/// of their documented values; ``validationProblem`` says what is wrong otherwise.
public struct DeviceInfo: Sendable, Codable, Equatable {
    /// The platform whose Adobe Pass configuration the application uses.
    public enum Platform: String, Sendable, Codable, CaseIterable {
        /// iPhone and iPad applications.
        case iOS
        /// Apple TV applications.
        case tvOS
    }

    /// The device's primary hardware type (restricted, see ``allowedPrimaryHardwareTypes``).
    public var primaryHardwareType: String?
    /// The device's model name (required).
    public var model: String
    /// The device's version (required).
    public var version: String
    /// The device's manufacturer.
    public var manufacturer: String?
    /// The device's selling company.
    public var vendor: String?
    /// The operating system name (required, restricted).
    public var osName: String
    /// The operating system group name (restricted).
    public var osFamily: String?
    /// The operating system supplier (restricted).
    public var osVendor: String?
    /// The operating system version (required).
    public var osVersion: String
    /// The browser name (restricted).
    public var browserName: String?
    /// The browser's maker (restricted).
    public var browserVendor: String?
    /// The browser version.
    public var browserVersion: String?
    /// The device's user agent.
    public var userAgent: String?
    /// The physical screen width.
    public var displayWidth: Int?
    /// The physical screen height.
    public var displayHeight: Int?
    /// The screen pixel density.
    public var displayPpi: Int?
    /// The screen diagonal in inches, as text ("5.5").
    public var diagonalScreenSize: String?
    /// The IP the device sends requests from.
    public var connectionIp: String?
    /// The port the device sends requests from.
    public var connectionPort: String?
    /// The network connection type, such as `WiFi` or `LAN` (required).
    public var connectionType: String
    /// Whether the network is secure (`false` on a public hot spot).
    public var connectionSecure: Bool?
    /// The application's identifier.
    public var applicationId: String?

    /// Creates device information; the required keys come first.
    public init(
        model: String, version: String, osName: String, osVersion: String, connectionType: String,
        primaryHardwareType: String? = nil, manufacturer: String? = nil, vendor: String? = nil,
        osFamily: String? = nil, osVendor: String? = nil,
        browserName: String? = nil, browserVendor: String? = nil, browserVersion: String? = nil,
        userAgent: String? = nil, displayWidth: Int? = nil, displayHeight: Int? = nil,
        displayPpi: Int? = nil, diagonalScreenSize: String? = nil,
        connectionIp: String? = nil, connectionPort: String? = nil, connectionSecure: Bool? = nil,
        applicationId: String? = nil
    ) {
        self.model = model
        self.version = version
        self.osName = osName
        self.osVersion = osVersion
        self.connectionType = connectionType
        self.primaryHardwareType = primaryHardwareType
        self.manufacturer = manufacturer
        self.vendor = vendor
        self.osFamily = osFamily
        self.osVendor = osVendor
        self.browserName = browserName
        self.browserVendor = browserVendor
        self.browserVersion = browserVersion
        self.userAgent = userAgent
        self.displayWidth = displayWidth
        self.displayHeight = displayHeight
        self.displayPpi = displayPpi
        self.diagonalScreenSize = diagonalScreenSize
        self.connectionIp = connectionIp
        self.connectionPort = connectionPort
        self.connectionSecure = connectionSecure
        self.applicationId = applicationId
    }

    /// Device information for an application running on this Linux machine while using
    /// the Adobe Pass configuration of `platform`.
    ///
    /// The operating system keys name the emulated platform (`iOS` or `tvOS`, vendor
    /// Apple, version 17.0), because Adobe Pass picks platform rules such as partner single
    /// sign-on from them; the hardware keys describe the real machine (`model` from the
    /// `uname` machine, `version` from the kernel release). Connection type: `LAN`.
    public static func linuxDefault(platform: Platform) -> DeviceInfo {
        let machine = UnameInfo.current
        return DeviceInfo(
            model: machine.machine.isEmpty ? "Linux" : "Linux \(machine.machine)",
            version: machine.release.isEmpty ? "0" : machine.release,
            osName: platform.rawValue,
            osVersion: "17.0",
            connectionType: "LAN",
            primaryHardwareType: platform == .iOS ? "MobilePhone" : "SetTopBox",
            osFamily: platform.rawValue,
            osVendor: "Apple"
        )
    }

    /// The documented values of `primaryHardwareType`.
    public static let allowedPrimaryHardwareTypes: Set<String> = [
        "Camera", "DataCollectionTerminal", "Desktop", "EmbeddedNetworkModule", "eReader", "GamesConsole",
        "GeolocationTracker", "Glasses", "MediaPlayer", "MobilePhone", "PaymentTerminal", "PluginModem",
        "SetTopBox", "TV", "Tablet", "WirelessHotspot", "Wristwatch", "Unknown",
    ]
    /// The documented values of `osName`.
    public static let allowedOSNames: Set<String> = [
        "Android", "Chrome OS", "Linux", "Mac OS", "OS X", "OpenBSD", "Roku OS", "Windows", "iOS", "tvOS", "webOS",
    ]
    /// The documented values of `osFamily`.
    public static let allowedOSFamilies: Set<String> = [
        "Android", "BSD", "Linux", "PlayStation OS", "Roku OS", "Symbian", "Tizen", "Windows", "iOS", "tvOS",
        "macOS", "webOS",
    ]
    /// The documented values of `osVendor`.
    public static let allowedOSVendors: Set<String> = [
        "Amazon", "Apple", "Google", "LG", "Microsoft", "Mozilla", "Nintendo", "Nokia", "Roku", "Samsung", "Sony",
        "Tizen Project",
    ]
    /// The documented values of `browserName`.
    public static let allowedBrowserNames: Set<String> = [
        "Android Browser", "Chrome", "Edge", "Firefox", "Internet Explorer", "Opera", "Safari", "SeaMonkey",
        "Symbian Browser",
    ]
    /// The documented values of `browserVendor`.
    public static let allowedBrowserVendors: Set<String> = [
        "Amazon", "Apple", "Google", "Microsoft", "Motorola", "Mozilla", "Netscape", "Nintendo", "Nokia", "Samsung",
        "Sony Ericsson",
    ]

    /// What breaks the header's rules, or `nil` when the values are valid.
    public var validationProblem: String? {
        let required: [(String, String)] = [
            ("model", model), ("version", version), ("osName", osName), ("osVersion", osVersion),
            ("connectionType", connectionType),
        ]
        for (key, value) in required where value.trimmingCharacters(in: .whitespaces).isEmpty {
            return "the required key \(key) is empty"
        }
        let restricted: [(String, String?, Set<String>)] = [
            ("primaryHardwareType", primaryHardwareType, Self.allowedPrimaryHardwareTypes),
            ("osName", osName, Self.allowedOSNames),
            ("osFamily", osFamily, Self.allowedOSFamilies),
            ("osVendor", osVendor, Self.allowedOSVendors),
            ("browserName", browserName, Self.allowedBrowserNames),
            ("browserVendor", browserVendor, Self.allowedBrowserVendors),
        ]
        for (key, value, allowed) in restricted {
            if let value, !allowed.contains(value) {
                return "\(key) \"\(value)\" is not one of the documented values (\(allowed.sorted().joined(separator: ", ")))"
            }
        }
        return nil
    }

    /// Throws ``RESTClientError/invalidDeviceInfo(_:)`` when ``validationProblem`` is set.
    func validate() throws(RESTClientError) {
        if let problem = validationProblem { throw .invalidDeviceInfo(problem) }
    }

    /// The header value: Base64 of the JSON object (keys sorted, absent keys omitted).
    public var headerValue: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings, numbers and booleans cannot fail.
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return data.base64EncodedString()
    }

    /// The header value after validation.
    func validatedHeaderValue() throws(RESTClientError) -> String {
        try validate()
        return headerValue
    }

    /// Decodes a header value (Base64 JSON), as the legacy `device_info` option passes it;
    /// `nil` when it is not Base64 JSON with the required keys. Validity of the values is
    /// reported by ``validationProblem``.
    public init?(headerValue: String) {
        guard let data = Data(base64Encoded: headerValue.trimmingCharacters(in: .whitespacesAndNewlines)),
            let decoded = try? JSONDecoder().decode(DeviceInfo.self, from: data)
        else { return nil }
        self = decoded
    }
}

/// The kernel's machine and release names.
private struct UnameInfo {
    var machine: String
    var release: String

    static var current: UnameInfo {
        #if canImport(Glibc)
        var info = utsname()
        guard uname(&info) == 0 else { return UnameInfo(machine: "", release: "") }
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        return UnameInfo(machine: text(info.machine), release: text(info.release))
        #else
        return UnameInfo(machine: "", release: "")
        #endif
    }
}
