import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Records the API requests PassSandbox answers, so a separate tool can check them against
/// the published API descriptions: turned on for the whole process by the environment
/// variable `PASS_SANDBOX_RECORD`, naming a file that every sandbox of the process appends
/// to (created `0600`).
///
/// One JSON object per line, for each request under `/api/v2/` and `/o/client/`:
/// `{"method", "path", "query": [[name, value]…], "headers": [[name, value]…], "body",
/// "status"}` — `body` is the body as UTF-8 text (`"bodyBase64"` instead when it is not
/// UTF-8). Secrets never reach the file: the `Authorization` credentials, `AD-Service-Token`,
/// `Adobe-Subject-Token`, and the `client_secret`, `SAMLResponse` and `software_statement`
/// parameters (form, JSON or query) are written as `REDACTED`.
final class SandboxRequestRecorder: @unchecked Sendable {
    /// The environment variable that turns recording on.
    static let environmentVariable = "PASS_SANDBOX_RECORD"

    /// The process's recorder, or `nil` when `PASS_SANDBOX_RECORD` is unset or its file
    /// cannot be opened (a warning on standard error says which).
    static let shared: SandboxRequestRecorder? = {
        guard let path = ProcessInfo.processInfo.environment[environmentVariable], !path.isEmpty else { return nil }
        guard let recorder = SandboxRequestRecorder(appendingTo: path) else {
            FileHandle.standardError.write(
                Data("PassSandbox: cannot record requests to \(path): \(String(cString: strerror(errno)))\n".utf8))
            return nil
        }
        return recorder
    }()

    /// The placeholder written instead of a secret.
    static let redacted = "REDACTED"
    /// Headers whose values are secrets.
    private static let secretHeaders: Set<String> = ["ad-service-token", "adobe-subject-token"]
    /// Parameters whose values are secrets.
    private static let secretParameters: Set<String> = ["client_secret", "SAMLResponse", "software_statement"]

    private let descriptor: Int32
    private let lock = NSLock()

    /// A recorder appending to the file at `path` (created `0600` when missing); `nil` when
    /// it cannot be opened. The file stays open for the recorder's lifetime.
    init?(appendingTo path: String) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// `true` for the paths of the APIs (REST API V2 and DCR), which are recorded.
    static func isRecorded(path: String) -> Bool {
        path.hasPrefix("/api/v2/") || path.hasPrefix("/o/client/")
    }

    /// Appends one request and the status it was answered with.
    func record(_ request: SandboxRequest, status: Int) {
        guard Self.isRecorded(path: request.path) else { return }
        var line = Self.line(for: request, status: status).bytes
        line.append(0x0A)
        lock.withLock {
            line.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                    if written <= 0 { return }
                    offset += written
                }
            }
        }
    }

    /// The JSON line for `request`, secrets replaced.
    static func line(for request: SandboxRequest, status: Int) -> SandboxJSON {
        let headers = request.headers.map { field -> SandboxJSON in
            .array([.string(field.name), .string(redactedHeaderValue(name: field.name, value: field.value))])
        }
        let query = request.query.map { item -> SandboxJSON in
            .array([.string(item.name), .string(secretParameters.contains(item.name) ? redacted : item.value)])
        }
        let body: (String, SandboxJSON)
        if let text = String(validating: redactedBody(request), as: UTF8.self) {
            body = ("body", .string(text))
        } else {
            body = ("bodyBase64", .string(Data(request.body).base64EncodedString()))
        }
        return .object([
            ("method", .string(request.method)),
            ("path", .string(request.path)),
            ("query", .array(query)),
            ("headers", .array(headers)),
            body,
            ("status", .int(Int64(status))),
        ])
    }

    /// A header value with its credentials replaced: `Bearer REDACTED` for `Authorization`.
    private static func redactedHeaderValue(name: String, value: String) -> String {
        if HTTPASCII.equalIgnoringCase(name, "Authorization") {
            let scheme = HTTPASCII.splitOnce(value, at: HTTPByte.space).map { String($0.head) } ?? ""
            return scheme.isEmpty ? redacted : "\(scheme) \(redacted)"
        }
        return secretHeaders.contains(name.lowercased()) ? redacted : value
    }

    /// The body with secret parameters replaced: form bodies field by field, JSON objects
    /// member by member. Any other body that names a secret parameter is replaced whole.
    private static func redactedBody(_ request: SandboxRequest) -> [UInt8] {
        let contentType = request.header("Content-Type")
        let text = String(decoding: request.body, as: UTF8.self)
        if SandboxMediaType.form.matches(contentType) {
            let pairs = text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
                let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
                let decoded = SandboxRequest.decodeForm(String(name)).first?.name ?? String(name)
                return secretParameters.contains(decoded) ? "\(name)=\(redacted)" : String(pair)
            }
            return Array(pairs.joined(separator: "&").utf8)
        }
        guard secretParameters.contains(where: text.contains) else { return request.body }
        if SandboxMediaType.json.matches(contentType),
            var object = try? JSONSerialization.jsonObject(with: Data(request.body), options: []) as? [String: Any]
        {
            for key in object.keys where secretParameters.contains(key) { object[key] = redacted }
            // Only top-level members are replaced: a body nesting objects is replaced whole.
            let flat = object.values.allSatisfy { !($0 is [Any] || $0 is [String: Any]) }
            if flat, let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) {
                return Array(data)
            }
        }
        return Array(redacted.utf8)
    }
}
