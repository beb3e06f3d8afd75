import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Why a fake line server could not listen.
public enum FakeLineServerError: Error, Sendable {
    /// `bind` or `listen` failed at `path` with `errno`.
    case cannotListen(path: String, errno: Int32)
}

/// A Unix socket server of one behaviour, for the client's faults: it reads one line per
/// connection, then answers as told.
public final class FakeLineServer: @unchecked Sendable {
    /// What the server does after reading a connection's first line.
    public enum Behaviour: Sendable {
        /// Writes these bytes, then keeps the connection open.
        case answer(String)
        /// Closes the connection without a word.
        case close
        /// Never answers.
        case silence
    }

    /// The socket file it listens at.
    public let path: String
    private let descriptor: Int32
    private let lock = NSLock()
    private var connections: [Int32] = []

    /// Listens at `path` (replacing a socket file left there) and answers each connection as
    /// `behaviour` says, on a thread of its own, until released.
    public init(path: String, behaviour: Behaviour) throws {
        self.path = path
        unlink(path)
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let bound = Self.bind(descriptor, to: path)
        guard bound == 0, listen(descriptor, 8) == 0 else {
            throw FakeLineServerError.cannotListen(path: path, errno: errno)
        }
        let thread = Thread { [self] in
            while true {
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else { return }
                lock.withLock { connections.append(connection) }
                var byte: UInt8 = 0
                while read(connection, &byte, 1) == 1, byte != UInt8(ascii: "\n") {}
                switch behaviour {
                case .answer(let text):
                    _ = Array(text.utf8).withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                case .close: shutdown(connection, Int32(SHUT_RDWR))
                case .silence: break
                }
            }
        }
        thread.start()
    }

    /// A socket file at `path` that nobody listens on, as a process killed while listening leaves.
    public static func leaveStaleSocket(at path: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let bound = Self.bind(descriptor, to: path)
        close(descriptor)
        guard bound == 0 else { throw FakeLineServerError.cannotListen(path: path, errno: errno) }
    }

    /// Binds `descriptor` to the socket file `path`: `bind`'s result.
    private static func bind(_ descriptor: Int32, to path: String) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return -1 }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
        for connection in lock.withLock({ connections }) { close(connection) }
        unlink(path)
    }
}
