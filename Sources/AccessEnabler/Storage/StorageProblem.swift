import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A storage write (or deletion) that failed, told to whoever opened the store so it can
/// tell the application: a sign-in that cannot be saved is lost when the app quits.
///
/// ``message`` is a sentence a person can act on: which file, why, and what to do.
struct StorageProblem: Sendable, Equatable, CustomStringConvertible {
    /// Why the file system refused.
    enum Cause: Sendable, Equatable {
        /// No space left on the device (or the user's quota is used up).
        case diskFull
        /// The file system is mounted read-only.
        case readOnly
        /// The process may not write there.
        case permissionDenied
        /// A directory stands where the file should be.
        case directoryInTheWay
        /// A file stands where a directory of the path should be.
        case fileInTheWay
        /// Anything else, as the system describes it.
        case other(String)
        /// The storage directory was refused: another user could read or replace what is kept
        /// there (``StorageLocationCheck``). Nothing is read or written there.
        case untrustedLocation(StorageLocationRefusal)

        /// The cause of a failed system call's `errno`.
        init(errno code: Int32) {
            switch code {
            case ENOSPC, EDQUOT: self = .diskFull
            case EROFS: self = .readOnly
            case EACCES, EPERM: self = .permissionDenied
            case EISDIR: self = .directoryInTheWay
            case ENOTDIR, EEXIST: self = .fileInTheWay
            default: self = .other(String(cString: strerror(code)))
            }
        }
    }

    /// Whether a file was being written or deleted.
    enum Operation: Sendable, Equatable {
        case save
        case delete
    }

    /// What the file holds, for a person: "the device identifier", "the sign-in of REF30".
    var subject: String
    /// The file or directory the system refused.
    var path: String
    var operation: Operation
    var cause: Cause

    /// Creates a problem from the failed system call.
    init(subject: String, operation: Operation, error: StorageIOError) {
        self.subject = subject
        self.path = error.path
        self.operation = operation
        self.cause = error.refusal.map(Cause.untrustedLocation) ?? Cause(errno: error.code)
    }

    /// The storage directory refused before anything was read or written there.
    init(refusal: StorageLocationRefusal) {
        self.init(
            subject: "the stored sign-ins, client and token", path: refusal.path, operation: .save,
            cause: .untrustedLocation(refusal))
    }

    init(subject: String, path: String, operation: Operation, cause: Cause) {
        self.subject = subject
        self.path = path
        self.operation = operation
        self.cause = cause
    }

    /// Which file failed, why, and what to do about it.
    var message: String {
        if case .untrustedLocation(let refusal) = cause { return refusal.message }
        let verb = operation == .save ? "save" : "delete"
        let reason: String
        switch cause {
        case .diskFull:
            reason = "the disk is full. Free some space on that file system"
        case .readOnly:
            reason =
                "the file system is read-only. Set AccessEnablerConfiguration.storageDirectory to a directory on a writable file system"
        case .permissionDenied:
            reason =
                "permission denied. Give the app's user write access to that directory, or set AccessEnablerConfiguration.storageDirectory to one it can write"
        case .directoryInTheWay:
            reason = "a directory is in the way. Remove or rename it"
        case .fileInTheWay:
            reason =
                "a file stands where a directory should be. Remove or rename it, or set AccessEnablerConfiguration.storageDirectory elsewhere"
        case .other(let text):
            reason = "\(text). Check that directory"
        case .untrustedLocation(let refusal):
            reason = refusal.message
        }
        return
            "Could not \(verb) \(subject) (\(path)): \(reason). Until then the SDK keeps working from memory, and what it could not save is lost when the app quits."
    }

    var description: String { message }
}
