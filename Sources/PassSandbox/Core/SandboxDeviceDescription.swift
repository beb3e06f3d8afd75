/// The `device` object of `GET /api/v2/{sp}/sessions/{code}`: the streaming device that
/// opened the session, read from the `X-Device-Info` it sent, in the structure the session
/// information page's samples show (`type`, `model`, `version`, `hardware`,
/// `operatingSystem`, `browser`, `display`, `applicationId`, `connection`).
///
/// Each X-Device-Info key goes where its meaning belongs (`primaryHardwareType` → `type`,
/// `osName` → `operatingSystem.name`, `connectionIp` → `connection.ipAddress`, …). Versions
/// are split into `major`, `minor`, `patch` and `profile` (`"6.1.0-13-amd64"` → 6, 1, 0,
/// `"13-amd64"`). What the header does not say is `null` (numbers `0`, `secure` `false`),
/// as in the samples.
struct SandboxDeviceDescription {
    /// The decoded X-Device-Info members.
    private let info: [String: SandboxJSON]

    /// A description of the device whose `X-Device-Info` is `deviceInfo` (an object; anything
    /// else describes an unknown device).
    init(deviceInfo: SandboxJSON?) {
        if case .object(let pairs)? = deviceInfo {
            info = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        } else {
            info = [:]
        }
    }

    /// The `device` object.
    var json: SandboxJSON {
        .object([
            ("type", .string(text("primaryHardwareType") ?? "Unknown")),
            ("model", nullable("model")),
            ("version", Self.version(text("version"))),
            (
                "hardware",
                .object([
                    ("name", nullable("model")),
                    ("vendor", nullable("vendor")),
                    ("version", Self.version(text("version"))),
                    ("manufacturer", nullable("manufacturer")),
                ])
            ),
            (
                "operatingSystem",
                .object([
                    ("name", nullable("osName")),
                    ("family", nullable("osFamily")),
                    ("vendor", nullable("osVendor")),
                    ("version", Self.version(text("osVersion"))),
                ])
            ),
            (
                "browser",
                .object([
                    ("name", nullable("browserName")),
                    ("vendor", nullable("browserVendor")),
                    ("version", Self.version(text("browserVersion"))),
                    ("userAgent", nullable("userAgent")),
                    ("originalUserAgent", nullable("userAgent")),
                ])
            ),
            (
                "display",
                .object([
                    ("width", .int(integer("displayWidth"))),
                    ("height", .int(integer("displayHeight"))),
                    ("ppi", .int(integer("displayPpi"))),
                    ("name", .null),
                    ("vendor", .null),
                    ("version", .null),
                    ("diagonalSize", nullable("diagonalScreenSize")),
                ])
            ),
            ("applicationId", nullable("applicationId")),
            (
                "connection",
                .object([
                    ("ipAddress", nullable("connectionIp")),
                    ("port", nullable("connectionPort")),
                    ("secure", .bool(flag("connectionSecure"))),
                    ("type", nullable("connectionType")),
                ])
            ),
        ])
    }

    /// The member as text: a string as it is, a number as written; `nil` for anything else.
    private func text(_ key: String) -> String? {
        switch info[key] {
        case .string(let text)?: text.isEmpty ? nil : text
        case .int(let number)?: String(number)
        case .double(let number)?: String(number)
        default: nil
        }
    }

    private func nullable(_ key: String) -> SandboxJSON {
        text(key).map(SandboxJSON.string) ?? .null
    }

    /// The member as a whole number (a number, or a string of digits); 0 otherwise.
    private func integer(_ key: String) -> Int64 {
        switch info[key] {
        case .int(let number)?: number
        case .double(let number)? where number.isFinite && abs(number) < 9e15: Int64(number)
        case .string(let text)?: Int64(text) ?? 0
        default: 0
        }
    }

    /// The member as a flag (`true`, or the string `"true"`); `false` otherwise.
    private func flag(_ key: String) -> Bool {
        switch info[key] {
        case .bool(let value)?: value
        case .string(let text)?: text == "true"
        default: false
        }
    }

    /// `{major, minor, patch, profile}` of a version text: up to three leading numbers
    /// separated by dots, and whatever follows (without its leading separator) as the
    /// profile. No text gives 0.0.0 and an empty profile.
    static func version(_ text: String?) -> SandboxJSON {
        var numbers: [Int64] = []
        var rest = Substring(text ?? "")
        while numbers.count < 3 {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            // Numbers are 32-bit in the API; a longer run of digits is left to the profile.
            guard !digits.isEmpty, let number = Int32(digits) else { break }
            let afterDigits = rest.dropFirst(digits.count)
            numbers.append(Int64(number))
            rest = afterDigits
            guard numbers.count < 3, afterDigits.first == ".", afterDigits.dropFirst().first?.isNumber == true else {
                break
            }
            rest = afterDigits.dropFirst()
        }
        while let first = rest.first, "-+_. ".contains(first) { rest = rest.dropFirst() }
        let parts = numbers + Array(repeating: 0, count: 3 - numbers.count)
        return .object([
            ("major", .int(parts[0])),
            ("minor", .int(parts[1])),
            ("patch", .int(parts[2])),
            ("profile", .string(String(rest))),
        ])
    }
}
