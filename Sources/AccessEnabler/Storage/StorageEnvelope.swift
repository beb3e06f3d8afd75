import Foundation

/// The format of one record in a file of its own (format 1): the identity file, and every
/// record file of the layout builds before format 2 wrote (``StorageLayout/Legacy``, read
/// once and moved into `store.json`, see ``StorageStoreFile``). One JSON object:
///
/// ```json
/// {"formatVersion":1,"kind":"identity","payload":{...},"integrity":"<64 hex>"}
/// ```
///
/// - `formatVersion`: ``currentFormatVersion``; a file with any other version is not read.
/// - `kind`: which record the payload holds (`identity`, and in the old layout
///   `clientCredentials`, `accessToken`, `requestor`, `serviceProviderClient`), so a file
///   renamed over another is recognised.
/// - `payload`: the record, encoded canonically (keys sorted, dates as seconds since 1970).
/// - `integrity`: HMAC-SHA256, in lowercase hex, of the payload's canonical bytes (exactly the
///   bytes written after `"payload":`) under the store's integrity key. The identity file, which
///   holds that key, carries a plain SHA-256 of its payload instead.
///
/// The integrity code is verified by re-encoding the decoded payload canonically, so a file
/// whose values are unchanged verifies even if its whitespace was altered, while any changed
/// value does not. The key lives next to the data: the code detects corruption and edits made
/// outside the SDK, it is not a defence against someone who can read the key.
enum StorageEnvelope {
    /// The format version of a one-record file.
    static let currentFormatVersion = 1

    /// How a payload's integrity code is computed.
    enum Protection {
        /// HMAC-SHA256 under the store's key.
        case keyed([UInt8])
        /// Unkeyed SHA-256, for the file that holds the key itself.
        case digest

        func code(for payload: [UInt8]) -> [UInt8] {
            switch self {
            case .keyed(let key): return HMACSHA256.authenticationCode(for: payload, key: key)
            case .digest: return SHA256.digest(payload)
            }
        }
    }

    /// The envelope file for `payload`.
    static func encode<Payload: Encodable>(_ payload: Payload, kind: String, protection: Protection) throws -> Data {
        let payloadBytes = try CanonicalJSONEncoder.encode(payload)
        let kindBytes = try CanonicalJSONEncoder.encode(kind)
        let integrity = Hex.encode(protection.code(for: Array(payloadBytes)))
        var file = Data(#"{"formatVersion":\#(currentFormatVersion),"kind":"#.utf8)
        file.append(kindBytes)
        file.append(Data(#","payload":"#.utf8))
        file.append(payloadBytes)
        file.append(Data(#","integrity":"\#(integrity)"}"#.utf8))
        return file
    }

    /// The payload of an envelope file.
    ///
    /// - Parameter verifyIntegrity: whether to check the integrity code; when false the
    ///   payload is trusted as long as it decodes.
    static func decode<Payload: Codable>(
        _ type: Payload.Type, from data: Data, kind: String, protection: Protection, verifyIntegrity: Bool
    ) throws(StorageFileProblem) -> Payload {
        let decoder = canonicalDecoder()
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: data)
        } catch {
            throw .notJSON
        }
        guard header.formatVersion == currentFormatVersion else {
            throw .unsupportedFormatVersion(header.formatVersion)
        }
        guard header.kind == kind else {
            throw .wrongKind(expected: kind, found: header.kind)
        }
        let payload: Payload
        do {
            payload = try decoder.decode(Body<Payload>.self, from: data).payload
        } catch {
            throw .malformedPayload
        }
        if verifyIntegrity {
            guard let stored = header.integrity.flatMap(Hex.decode),
                let canonical = try? CanonicalJSONEncoder.encode(payload),
                HMACSHA256.constantTimeEquals(protection.code(for: Array(canonical)), stored)
            else {
                throw .integrityMismatch
            }
        }
        return payload
    }

    /// Dates are read as the encoder wrote them, and only plausible ones
    /// (``PlausibleDate``): a stored expiry in the year 300 million or before 1970 makes the
    /// payload malformed, as any other value the SDK did not write would. `store.json` is
    /// read with it too (``StorageStoreFile``).
    static func canonicalDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let seconds = try container.decode(Double.self)
            guard PlausibleDate.contains(secondsSince1970: seconds) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "A date outside 1970 through the year 9999.")
            }
            return Date(timeIntervalSince1970: seconds)
        }
        return decoder
    }

    /// The envelope fields other than the payload; all optional so that each missing one is
    /// reported precisely.
    private struct Header: Decodable {
        var formatVersion: Int?
        var kind: String?
        var integrity: String?
    }

    private struct Body<Payload: Decodable>: Decodable {
        var payload: Payload
    }
}
