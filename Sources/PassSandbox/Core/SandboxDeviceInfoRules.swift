import Foundation

/// What the `X-Device-Info` header must hold, from its appendix page: Base64 of a JSON
/// object with the required keys (`model`, `version`, `osName`, `osVersion`,
/// `connectionType`) and, for the restricted keys, one of the listed values. The sandbox's
/// own reading of the page, independent of the SDK's `DeviceInfo`.
enum SandboxDeviceInfoRules {
    /// Keys every device description must have, not empty.
    static let requiredKeys = ["model", "version", "osName", "osVersion", "connectionType"]

    /// Keys whose values are restricted, with the values allowed.
    static let restrictedValues: [String: Set<String>] = [
        "primaryHardwareType": [
            "Camera", "DataCollectionTerminal", "Desktop", "EmbeddedNetworkModule", "eReader", "GamesConsole",
            "GeolocationTracker", "Glasses", "MediaPlayer", "MobilePhone", "PaymentTerminal", "PluginModem",
            "SetTopBox", "TV", "Tablet", "WirelessHotspot", "Wristwatch", "Unknown",
        ],
        "osName": [
            "Android", "Chrome OS", "Linux", "Mac OS", "OS X", "OpenBSD", "Roku OS", "Windows", "iOS", "tvOS", "webOS",
        ],
        "osFamily": [
            "Android", "BSD", "Linux", "PlayStation OS", "Roku OS", "Symbian", "Tizen", "Windows", "iOS", "tvOS",
            "macOS", "webOS",
        ],
        "osVendor": [
            "Amazon", "Apple", "Google", "LG", "Microsoft", "Mozilla", "Nintendo", "Nokia", "Roku", "Samsung", "Sony",
            "Tizen Project",
        ],
        "browserName": [
            "Android Browser", "Chrome", "Edge", "Firefox", "Internet Explorer", "Opera", "Safari", "SeaMonkey",
            "Symbian Browser",
        ],
        "browserVendor": [
            "Amazon", "Apple", "Google", "Microsoft", "Motorola", "Mozilla", "Netscape", "Nintendo", "Nokia", "Samsung",
            "Sony Ericsson",
        ],
    ]

    /// Decodes and checks a header value: the JSON object, or a sentence saying what is
    /// wrong (naming the key at fault).
    static func check(_ header: String) -> Result<[String: Any], DeviceInfoProblem> {
        guard let data = Data(base64Encoded: HTTPASCII.trimmingSpaces(header)),
            let object = try? JSONSerialization.jsonObject(with: data, options: []) as? [String: Any]
        else { return .failure(DeviceInfoProblem(text: "Expected a Base64-encoded JSON object.")) }
        if let problem = problem(in: object) { return .failure(DeviceInfoProblem(text: problem)) }
        return .success(object)
    }

    /// The first rule `object` breaks, or `nil`.
    static func problem(in object: [String: Any]) -> String? {
        for key in requiredKeys {
            guard let value = object[key], !(value is NSNull) else { return "The required key \"\(key)\" is missing." }
            if let text = value as? String, text.isEmpty { return "The required key \"\(key)\" is empty." }
        }
        for key in restrictedValues.keys.sorted() {
            guard let value = object[key] else { continue }
            guard let text = value as? String, restrictedValues[key]?.contains(text) == true else {
                return
                    "\"\(key)\" must be one of the documented values (\(restrictedValues[key]?.sorted().joined(separator: ", ") ?? "")), not \(describe(value))."
            }
        }
        if let secure = object["connectionSecure"] {
            let allowed = (secure as? String).map { $0 == "true" || $0 == "false" } ?? isBoolean(secure)
            if !allowed { return "\"connectionSecure\" must be true or false, not \(describe(secure))." }
        }
        return nil
    }

    /// A short rendering of a JSON value for messages.
    private static func describe(_ value: Any) -> String {
        if let text = value as? String { return "\"\(text)\"" }
        return String(decoding: SandboxJSON(foundation: value).bytes, as: UTF8.self)
    }

    /// `JSONSerialization` reads `true`/`false` as `NSNumber`s of type `c`.
    private static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }
}

/// Why an `X-Device-Info` value was refused.
struct DeviceInfoProblem: Error, Sendable {
    let text: String
}
