import Foundation

/// Base64URL without padding (RFC 7515 §2, RFC 4648 §5): the encoding of every part of a
/// JWS and of every number in a JWK.
enum SandboxBase64URL {
    /// The text of `bytes`.
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let standard = Data(bytes).base64EncodedString()
        return String(
            String.UnicodeScalarView(
                standard.unicodeScalars.compactMap { scalar -> Unicode.Scalar? in
                    switch scalar {
                    case "+": "-"
                    case "/": "_"
                    case "=": nil
                    default: scalar
                    }
                }))
    }

    /// The bytes of `text`, or `nil` when it holds a character outside the Base64URL
    /// alphabet (padding included) or has an impossible length.
    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var standard = ""
        standard.reserveCapacity(text.utf8.count + 3)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "A"..."Z", "a"..."z", "0"..."9": standard.unicodeScalars.append(scalar)
            case "-": standard.append("+")
            case "_": standard.append("/")
            default: return nil
            }
        }
        switch standard.utf8.count % 4 {
        case 1: return nil
        case 2: standard += "=="
        case 3: standard += "="
        default: break
        }
        return Data(base64Encoded: standard).map(Array.init)
    }
}
