import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What the service keeps across restarts — the household's sign-in and each app's
/// permission — in one file, `state.json`, in a private directory (``PrivateDirectory``).
///
/// The file is one envelope with a format number, mode 0600, replaced whole: written to a
/// temporary file, flushed to disk, renamed over the old one, and the directory flushed, so a
/// crash or a power cut leaves the old state or the new one, never half of each. A file that
/// cannot be read (cut short, edited, another user's) is moved aside as
/// `state.json.unreadable-<time>`, never deleted, and the service starts from nothing.
package struct ProviderServiceStore: Sendable {
    /// The envelope's format.
    package static let format: Int64 = 1
    /// The largest state file read.
    package static let maximumFileSize = 1 << 20

    /// The directory.
    package let directory: String
    /// `directory/state.json`.
    package var path: String { directory + "/state.json" }

    /// A store in `directory`, which ``PrivateDirectory/prepare(_:mode:group:)`` checks (and
    /// creates) first.
    package init(directory: String) throws(PrivateDirectory.Refusal) {
        try PrivateDirectory.prepare(directory)
        self.directory = URL(fileURLWithPath: directory).standardizedFileURL.path
    }

    /// The state kept, and a sentence when a file had to be set aside.
    package func load() -> (state: StoredServiceState, problem: String?) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT { return (StoredServiceState(), nil) }
            return (StoredServiceState(), setAside("it cannot be opened (\(PrivateDirectory.errorText()))"))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return (StoredServiceState(), setAside("it is not a regular file"))
        }
        guard info.st_uid == geteuid() else {
            return (StoredServiceState(), setAside("it belongs to user \(info.st_uid)"))
        }
        guard info.st_size <= Self.maximumFileSize else {
            return (StoredServiceState(), setAside("it is larger than \(Self.maximumFileSize) bytes"))
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var read = 0
        while read < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + read, $0.count - read) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            read += count
        }
        guard read == bytes.count, let state = Self.decode(Data(bytes)) else {
            return (StoredServiceState(), setAside("it is not a state file of this service"))
        }
        return (state, nil)
    }

    /// Replaces the file with `state`. Throws a sentence saying what failed.
    package func save(_ state: StoredServiceState) throws(StoreFailure) {
        let temporary = directory + "/.state.json.\(getpid()).tmp"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw StoreFailure("cannot create \(temporary): \(PrivateDirectory.errorText())") }
        let bytes = Array(Self.encode(state).utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        let flushed = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, flushed else {
            let reason = PrivateDirectory.errorText()
            unlink(temporary)
            throw StoreFailure("cannot write \(temporary): \(reason)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = PrivateDirectory.errorText()
            unlink(temporary)
            throw StoreFailure("cannot replace \(path): \(reason)")
        }
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Why a save failed.
    package struct StoreFailure: Error, Sendable, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }

    /// Moves the file aside; returns the sentence for the log.
    private func setAside(_ reason: String) -> String {
        let aside = path + ".unreadable-\(Int64(Date().timeIntervalSince1970))"
        let moved = rename(path, aside) == 0
        return "the state file \(path) was not used: \(reason)" + (moved ? "; it was moved to \(aside)" : "")
    }

    // MARK: The envelope

    /// `{"format":1,"household":{…}|null,"permissions":[…]}`.
    static func encode(_ state: StoredServiceState) -> String {
        let household: WireJSON =
            state.household.map {
                .object([
                    ("provider", .string($0.provider)), ("providerName", .string($0.providerName)),
                    ("expiresAt", ServiceWire.milliseconds($0.expiresAt)), ("credential", .string($0.credential)),
                ])
            } ?? .null
        let permissions = state.permissions.sorted { $0.key < $1.key }.map { app, permission in
            WireJSON.object([
                ("requestor", .string(app.requestor)), ("name", .string(app.name)),
                ("accessStatus", .string(permission.rawValue)),
            ])
        }
        return WireJSON.object([
            ("format", .int(format)), ("household", household), ("permissions", .array(permissions)),
        ]).text + "\n"
    }

    /// The state in `data`, or `nil` when it is not a whole, valid envelope.
    static func decode(_ data: Data) -> StoredServiceState? {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let format = object["format"] as? NSNumber, format.int64Value == Self.format,
            let list = object["permissions"] as? [Any]
        else { return nil }
        var state = StoredServiceState()
        if let household = object["household"] as? [String: Any] {
            guard let provider = household["provider"] as? String, !provider.isEmpty,
                let name = household["providerName"] as? String,
                let credential = household["credential"] as? String, !credential.isEmpty,
                let milliseconds = household["expiresAt"] as? NSNumber,
                let expiresAt = Self.date(milliseconds: milliseconds)
            else { return nil }
            state.household = HouseholdSignIn(
                provider: provider, providerName: name, expiresAt: expiresAt, credential: credential)
        } else if !(object["household"] is NSNull) {
            return nil
        }
        for entry in list {
            guard let entry = entry as? [String: Any], let requestor = entry["requestor"] as? String,
                let name = entry["name"] as? String,
                let app = AppIdentity(requestor: requestor, name: name),
                let text = entry["accessStatus"] as? String, let permission = AppPermission(rawValue: text),
                permission != .notDetermined
            else { return nil }
            state.permissions[app] = permission
        }
        return state
    }

    /// Milliseconds since 1970 as a date, when they are a whole number from 1970 to 9999.
    static func date(milliseconds: NSNumber) -> Date? {
        let value = milliseconds.doubleValue
        guard value.isFinite, value == value.rounded(), (0...253_402_300_799_000).contains(value) else { return nil }
        return Date(timeIntervalSince1970: value / 1_000)
    }
}
