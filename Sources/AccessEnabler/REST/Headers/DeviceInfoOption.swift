import Foundation

/// The legacy `device_info` option of `setOptions`: the client information as Base64 JSON,
/// laid over the device information the SDK sends by default.
///
/// Adobe's Android demo sends it percent-encoded (the Base64 text passed through a URL
/// encoder: `%2B`, `%2F`, `%3D`, line breaks as `%0A`), and the legacy SDK requires only
/// `model` and `osName` where REST API V2 also needs `version`, `osVersion` and
/// `connectionType`: the keys it gives win, the others keep the defaults.
enum DeviceInfoOption {
    /// Why an option could not be used.
    struct Problem: Error, Sendable, Equatable {
        /// What is wrong, in a sentence.
        var reason: String
    }

    /// The device information `option` describes over `fallback`, or why it cannot be read.
    static func read(_ option: String, over fallback: DeviceInfo) -> Result<DeviceInfo, Problem> {
        guard let data = base64Payload(option) else {
            return .failure(Problem(reason: "it is not Base64 text, nor percent-encoded Base64 text"))
        }
        guard let given = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return .failure(Problem(reason: "its Base64 text does not hold a JSON object"))
        }
        guard
            let base = (try? JSONEncoder().encode(fallback)).flatMap({
                try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
            }),
            let merged = try? JSONSerialization.data(withJSONObject: base.merging(given) { $1 })
        else {
            return .failure(
                Problem(reason: "its JSON object could not be combined with the default device information"))
        }
        do {
            return .success(try JSONDecoder().decode(DeviceInfo.self, from: merged))
        } catch {
            return .failure(
                Problem(reason: "a key of its JSON object has a value of the wrong type (\(Self.key(of: error)))"))
        }
    }

    /// Why `option` cannot be used, or `nil` when it can (judged over placeholder defaults:
    /// only the keys the option gives can be wrong).
    static func problem(_ option: String) -> Problem? {
        // An empty option gives nothing to read: the defaults are sent, as with none.
        if option.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return nil }
        let placeholder = DeviceInfo(model: "-", version: "-", osName: "-", osVersion: "-", connectionType: "-")
        if case .failure(let problem) = read(option, over: placeholder) { return problem }
        return nil
    }

    /// The bytes `option` encodes: Base64 as it is, else once its percent-encoding is undone
    /// (line breaks dropped, the URL-safe alphabet and missing padding accepted).
    static func base64Payload(_ option: String) -> Data? {
        let trimmed = option.trimmingCharacters(in: .whitespacesAndNewlines)
        if let data = Data(base64Encoded: trimmed) { return data }
        var text = (trimmed.removingPercentEncoding ?? trimmed).filter { !$0.isWhitespace }
        text = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        if text.count % 4 != 0 { text += String(repeating: "=", count: 4 - text.count % 4) }
        guard !text.isEmpty else { return nil }
        return Data(base64Encoded: text)
    }

    private static func key(of error: any Error) -> String {
        switch error as? DecodingError {
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            context.codingPath.map(\.stringValue).joined(separator: ".")
        case .keyNotFound(let key, _)?:
            key.stringValue
        default:
            "\(error)"
        }
    }
}
