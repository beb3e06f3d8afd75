/// Why a stored file could not be used.
enum StorageFileProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file exists but could not be read.
    case unreadable(String)
    /// The bytes are not a JSON object.
    case notJSON
    /// The envelope has no format version, or one this build does not know.
    case unsupportedFormatVersion(Int?)
    /// The envelope holds another kind of record than its file name promises.
    case wrongKind(expected: String, found: String?)
    /// The payload does not match the integrity code (changed outside the SDK).
    case integrityMismatch
    /// The payload is not the expected record shape.
    case malformedPayload
    /// The payload decodes but a value in it is not usable.
    case invalidValue(String)
    /// The storage could not be written and read back.
    case notOperable(String)

    var description: String {
        switch self {
        case .unreadable(let reason): return "unreadable (\(reason))"
        case .notJSON: return "not a JSON object (corrupt or truncated)"
        case .unsupportedFormatVersion(let version?): return "unsupported format version \(version)"
        case .unsupportedFormatVersion(nil): return "missing format version"
        case .wrongKind(let expected, let found): return "holds \(found ?? "no kind") instead of \(expected)"
        case .integrityMismatch: return "integrity check failed (changed outside the SDK)"
        case .malformedPayload: return "payload is not a valid record"
        case .invalidValue(let reason): return "invalid value: \(reason)"
        case .notOperable(let reason): return "storage not writable and readable: \(reason)"
        }
    }
}
