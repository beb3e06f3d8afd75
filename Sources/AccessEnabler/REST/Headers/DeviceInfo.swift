import Foundation

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

    /// This Linux machine as it is, worked out once per process: the default `X-Device-Info`.
    ///
    /// Adobe Pass applies platform rules (TTLs, which features a request may use) from these
    /// values, and its documentation asks that they describe the actual streaming device.
    /// So the SDK sends what it finds, within the header's restricted values:
    ///
    /// | key | value |
    /// |---|---|
    /// | `model` | the firmware's product name (`/sys/class/dmi/id/product_name`), else the device tree's model, else `Linux <machine>` |
    /// | `version` | the firmware's product version, else the machine architecture (`uname -m`) |
    /// | `manufacturer`, `vendor` | the firmware's system vendor (`sys_vendor`, else `board_vendor`); absent when unknown |
    /// | `osName`, `osFamily` | `Linux` (`Chrome OS` or `webOS` when `/etc/os-release` says so) |
    /// | `osVendor` | `Google` for Chrome OS, `LG` for webOS; absent otherwise (no documented value fits) |
    /// | `osVersion` | `VERSION_ID` of `/etc/os-release`, else the kernel release (`uname -r`) |
    /// | `primaryHardwareType` | `Desktop` for a desktop or laptop chassis, `Tablet` for a tablet, otherwise `SetTopBox` |
    /// | `connectionType` | `WiFi` when the default route leaves through a wireless interface, else `LAN` |
    ///
    /// Firmware placeholders ("To Be Filled By O.E.M.", "Default string", …) are ignored.
    /// The hardware type defaults to a set-top box because a Linux machine without a
    /// desktop or laptop chassis that runs a TV application is most likely one (most such
    /// boxes have no DMI at all); an application that knows better sets
    /// `AccessEnablerConfiguration.deviceInfo`, for example a copy of this value with
    /// another ``primaryHardwareType``.
    public static var linuxMachine: DeviceInfo { cachedLinuxMachine }

    private static let cachedLinuxMachine = DeviceInfo(machine: .current)

    /// The default device information of an application that uses the Adobe Pass
    /// configuration of `platform`.
    ///
    /// Without partner single sign-on this is ``linuxMachine``: Adobe Pass sees the Linux
    /// device it talks to. With partner single sign-on (a partner framework configured),
    /// Adobe Pass serves the Apple partner flows only to iOS, iPadOS and tvOS devices, which
    /// it recognises from these values; the hardware keys still describe this machine, but
    /// the operating system keys name `platform` (see ``presenting(as:)``).
    public static func linuxDefault(platform: Platform, partnerSingleSignOn: Bool = false) -> DeviceInfo {
        partnerSingleSignOn ? linuxMachine.presenting(as: platform) : linuxMachine
    }

    /// The same device presented to Adobe Pass as a `platform` device: the operating system
    /// keys become `osName` and `osFamily` = `iOS`/`tvOS`, `osVendor` = `Apple`, `osVersion`
    /// = `17.0`; the hardware and connection keys are kept. For applications whose Adobe
    /// Pass integration (dashboard platform settings, partner single sign-on) exists only
    /// for iOS or tvOS.
    public func presenting(as platform: Platform) -> DeviceInfo {
        var presented = self
        presented.osName = platform.rawValue
        presented.osFamily = platform.rawValue
        presented.osVendor = "Apple"
        presented.osVersion = "17.0"
        return presented
    }

    /// This machine's description from `facts` (see ``linuxMachine`` for the rules).
    init(machine facts: LinuxMachineFacts) {
        let manufacturer = Self.meaningful(facts.systemVendor) ?? Self.meaningful(facts.boardVendor)
        let machine = facts.machine.trimmingCharacters(in: .whitespaces)
        let os = Self.operatingSystem(id: facts.osReleaseID)
        self.init(
            model: Self.meaningful(facts.productName) ?? Self.meaningful(facts.deviceTreeModel)
                ?? (machine.isEmpty ? "Linux" : "Linux \(machine)"),
            version: Self.meaningful(facts.productVersion) ?? (machine.isEmpty ? "unknown" : machine),
            osName: os.name,
            osVersion: Self.meaningful(facts.osReleaseVersionID) ?? Self.meaningful(facts.kernelRelease) ?? "unknown",
            connectionType: facts.defaultRouteIsWireless ? "WiFi" : "LAN",
            primaryHardwareType: Self.hardwareType(chassis: facts.chassisType),
            manufacturer: manufacturer, vendor: manufacturer,
            osFamily: os.family, osVendor: os.vendor)
    }

    /// The documented operating system values for an os-release `ID`.
    private static func operatingSystem(id: String?) -> (name: String, family: String, vendor: String?) {
        switch id?.lowercased() {
        case "chromeos", "chromiumos": ("Chrome OS", "Linux", "Google")
        case "webos": ("webOS", "webOS", "LG")
        default: ("Linux", "Linux", nil)
        }
    }

    /// `primaryHardwareType` for an SMBIOS chassis type.
    static func hardwareType(chassis: Int?) -> String {
        switch chassis {
        // Desktop, low profile, pizza box, mini tower, tower, portable, laptop, notebook,
        // all in one, sub notebook, space-saving, lunch box, sealed-case PC, convertible, detachable.
        case 3, 4, 5, 6, 7, 8, 9, 10, 13, 14, 15, 16, 24, 31, 32: "Desktop"
        case 30: "Tablet"
        default: "SetTopBox"
        }
    }

    /// `value` trimmed, or `nil` when it is empty or a firmware placeholder.
    static func meaningful(_ value: String?) -> String? {
        guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return placeholders.contains(trimmed.lowercased()) ? nil : trimmed
    }

    private static let placeholders: Set<String> = [
        "to be filled by o.e.m.", "to be filled by oem", "default string", "system product name", "system version",
        "system manufacturer", "not specified", "not applicable", "none", "n/a", "na", "unknown", "0", "00",
        "0123456789", "123456789", "1234567890", "x.x", "type1productconfigid", "invalid", "oem", "o.e.m.",
    ]

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
                return
                    "\(key) \"\(value)\" is not one of the documented values (\(allowed.sorted().joined(separator: ", ")))"
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

    /// The header value after validation. Validated and encoded once per distinct value:
    /// every request of a session carries the same device information.
    func validatedHeaderValue() throws(RESTClientError) -> String {
        if let cached = Self.headerCache.value(for: self) { return cached }
        try validate()
        let value = headerValue
        Self.headerCache.store(value, for: self)
        return value
    }

    private static let headerCache = LastValueCache<DeviceInfo, String>()

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
