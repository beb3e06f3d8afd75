import Foundation

/// The format of `store.json` (format 2): every stored value of a software statement but its
/// identity, in one envelope, replaced whole by each write — so a sign-in is one file, one
/// rename, and a reader sees one whole version or the next.
///
/// ```json
/// {"formatVersion":2,"kind":"store","integrity":"<64 hex>","payload":{
///   "accessToken":{…},"clientCredentials":{…},
///   "requestors":{"REF30":{…}},"serviceProviders":{"https://…":{…}}}}
/// ```
///
/// - `payload`: one member per record, each the record's own encoding (``RequestorRecord``,
///   ``StoredClientCredentials``, …), keys sorted, dates as seconds since 1970. Each record
///   decodes on its own: a record this build cannot read is discarded alone, and a member
///   it does not know (a newer build's) is ignored.
/// - `integrity`: HMAC-SHA256, in lowercase hex, of the payload's bytes exactly as written
///   (everything after `"payload":` up to the closing brace) under the store's integrity
///   key (``StoredIdentity``). Written before the payload, so a reader finds the payload's
///   bytes without parsing them; verified on those bytes, so a newer build's extra fields
///   verify in an older build. A file whose layout changed (reformatted) is verified on
///   its values encoded again canonically: unchanged values verify, any changed one does
///   not. The key lives next to the data: the code detects corruption and edits made outside
///   the SDK, it is not a defence against someone who can read the key.
enum StorageStoreFile {
    /// The format version of `store.json`.
    static let formatVersion = 2

    /// What `store.json` holds: the records, each as it decoded, and what could not be used.
    struct Contents: Sendable {
        var clientCredentials: StoredClientCredentials?
        var accessToken: StoredAccessToken?
        var requestors: [String: RequestorRecord] = [:]
        var serviceProviderClients: [String: StoredServiceProviderClient] = [:]
        /// The records that could not be used, each with why.
        var unusable: [(record: StoredRecordKey, problem: StorageFileProblem)] = []

        /// Whether the file held nothing.
        var isEmpty: Bool {
            clientCredentials == nil && accessToken == nil && requestors.isEmpty && serviceProviderClients.isEmpty
        }
    }

    /// The file for `snapshot`'s records, its payload authenticated with `key`.
    static func encode(_ snapshot: StorageSnapshot, key: [UInt8]) throws -> Data {
        let payload = Payload(
            clientCredentials: snapshot.clientCredentials, accessToken: snapshot.accessToken,
            requestors: snapshot.requestors.isEmpty ? nil : snapshot.requestors,
            serviceProviders: snapshot.serviceProviderClients.isEmpty ? nil : snapshot.serviceProviderClients)
        let payloadBytes = try CanonicalJSONEncoder.encode(payload)
        let integrity = Hex.encode(HMACSHA256.authenticationCode(for: Array(payloadBytes), key: key))
        var file = Data(capacity: prefix.count + integrity.utf8.count + payloadSeparator.count + payloadBytes.count + 1)
        file.append(contentsOf: prefix)
        file.append(contentsOf: Array(integrity.utf8))
        file.append(contentsOf: payloadSeparator)
        file.append(payloadBytes)
        file.append(UInt8(ascii: "}"))
        return file
    }

    /// Reads `data`. With `verify` (``IntegrityCheckType/INTEGRITY_CHECK_ALL``) the
    /// integrity code must match under `key` and every record must be well-formed, or the
    /// whole file is refused; without it, each record that decodes is taken as it is and
    /// the others are listed in ``Contents/unusable``.
    static func decode(_ data: Data, key: [UInt8], verify: Bool) throws(StorageFileProblem) -> Contents {
        let file: File
        do {
            file = try makeDecoder().decode(File.self, from: data)
        } catch {
            throw .notJSON
        }
        guard file.formatVersion == formatVersion else { throw .unsupportedFormatVersion(file.formatVersion) }
        guard file.kind == StorageLayout.Kind.store else {
            throw .wrongKind(expected: StorageLayout.Kind.store, found: file.kind)
        }
        guard let payload = file.payload else { throw .malformedPayload }
        if verify {
            guard let stored = file.integrity.flatMap(Hex.decode), verifies(data, code: stored, key: key) else {
                throw .integrityMismatch
            }
        }
        var contents = Contents()
        func take<Record: StoredValueValidating>(
            _ entry: Lenient<Record>, as key: StoredRecordKey, matches: (Record) -> Bool
        ) -> Record? {
            guard let record = entry.value else {
                contents.unusable.append((key, .malformedPayload))
                return nil
            }
            if verify {
                if let problem = record.validationProblem {
                    contents.unusable.append((key, .invalidValue(problem)))
                    return nil
                }
                if !matches(record) {
                    contents.unusable.append((key, .invalidValue("filed under another name")))
                    return nil
                }
            }
            return record
        }
        contents.clientCredentials = payload.clientCredentials.flatMap {
            take($0, as: .clientCredentials) { _ in true }
        }
        contents.accessToken = payload.accessToken.flatMap { take($0, as: .accessToken) { _ in true } }
        for (requestor, entry) in payload.requestors ?? [:] {
            contents.requestors[requestor] = take(entry, as: .requestor(requestor)) { $0.requestor == requestor }
        }
        for (baseURL, entry) in payload.serviceProviders ?? [:] {
            contents.serviceProviderClients[baseURL] = take(entry, as: .serviceProviderClient(baseURL)) {
                $0.baseURL == baseURL
            }
        }
        // Under INTEGRITY_CHECK_ALL a file that verified but holds an ill-formed value is not
        // a store to trust.
        if verify, let first = contents.unusable.first { throw first.problem }
        return contents
    }

    // MARK: - The bytes

    private static let prefix = Array(#"{"formatVersion":2,"kind":"store","integrity":""#.utf8)
    private static let payloadSeparator = Array(#"","payload":"#.utf8)
    /// 64 hex characters.
    private static let integrityLength = 64

    /// Whether `code` authenticates the payload of `data`: its bytes as written, or — for a
    /// file whose layout was changed (reformatted, its whitespace altered) — the canonical
    /// encoding of the values it holds, so unchanged values still verify while any changed
    /// one does not.
    private static func verifies(_ data: Data, code: [UInt8], key: [UInt8]) -> Bool {
        if let bytes = payloadBytes(of: data),
            HMACSHA256.constantTimeEquals(HMACSHA256.authenticationCode(for: bytes, key: key), code)
        {
            return true
        }
        guard let values = try? makeDecoder().decode(Canonical.self, from: data).payload,
            let canonical = try? CanonicalJSONEncoder.encode(values)
        else { return false }
        return HMACSHA256.constantTimeEquals(HMACSHA256.authenticationCode(for: Array(canonical), key: key), code)
    }

    /// The payload's bytes as written, or `nil` when the file is not laid out as this build
    /// writes it.
    private static func payloadBytes(of data: Data) -> [UInt8]? {
        let bytes = [UInt8](data)
        let start = prefix.count + integrityLength + payloadSeparator.count
        guard bytes.count > start, bytes.starts(with: prefix), bytes.last == UInt8(ascii: "}"),
            Array(bytes[(prefix.count + integrityLength)..<start]) == payloadSeparator
        else { return nil }
        return Array(bytes[start..<(bytes.count - 1)])
    }

    /// Dates as the envelope files read them: only plausible ones, so a record holding an
    /// expiry no answer can carry is unusable, and the rest of the file reads on.
    private static func makeDecoder() -> JSONDecoder {
        StorageEnvelope.canonicalDecoder()
    }

    /// A file's payload decoded strictly, to encode it again canonically.
    private struct Canonical: Decodable {
        var payload: Payload
    }

    /// What is written.
    private struct Payload: Codable {
        var clientCredentials: StoredClientCredentials?
        var accessToken: StoredAccessToken?
        var requestors: [String: RequestorRecord]?
        var serviceProviders: [String: StoredServiceProviderClient]?
    }

    /// What is read: every field optional, every record on its own.
    private struct File: Decodable {
        var formatVersion: Int?
        var kind: String?
        var integrity: String?
        var payload: LenientPayload?
    }

    private struct LenientPayload: Decodable {
        var clientCredentials: Lenient<StoredClientCredentials>?
        var accessToken: Lenient<StoredAccessToken>?
        var requestors: [String: Lenient<RequestorRecord>]?
        var serviceProviders: [String: Lenient<StoredServiceProviderClient>]?
    }

    /// A record that may not decode: its failure stays with it, the rest of the file reads on.
    private struct Lenient<Record: Decodable>: Decodable {
        var value: Record?

        init(from decoder: any Decoder) throws {
            value = try? Record(from: decoder)
        }
    }
}
