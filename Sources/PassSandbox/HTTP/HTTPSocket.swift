import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Thin wrappers over the POSIX socket calls the server uses. Every call retries on
/// `EINTR`; sends never raise `SIGPIPE` (`MSG_NOSIGNAL`).
enum HTTPSocket {
    /// A listening socket.
    struct Listener {
        /// Its descriptor (non-blocking, close-on-exec).
        var descriptor: Int32
        /// The port it is bound to.
        var port: Int
    }

    /// How waiting for input ended.
    enum WaitResult {
        /// Input, end of stream or an error is ready to be read.
        case readable
        /// The deadline passed first.
        case timedOut
    }

    /// Binds a TCP socket to `host:port` (port 0 picks a free one) and listens.
    static func listen(host: String, port: Int) throws -> Listener {
        let address = try SocketAddress(host: host, port: port)
        let descriptor = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw LoopbackHTTPServerError.bindFailed("socket: \(lastError())") }
        var reuse: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        guard address.withSockaddr({ bind(descriptor, $0, $1) }) == 0 else {
            let code = errno
            let reason = lastError()
            close(descriptor)
            if code == EADDRINUSE { throw LoopbackHTTPServerError.portInUse(host: host, port: port) }
            throw LoopbackHTTPServerError.bindFailed("\(host):\(port): \(reason)")
        }
        guard Glibc.listen(descriptor, SOMAXCONN) == 0 else {
            let reason = lastError()
            close(descriptor)
            throw LoopbackHTTPServerError.listenFailed(reason)
        }
        // Non-blocking so that accept never hangs when a client leaves between poll and accept.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            let reason = lastError()
            close(descriptor)
            throw LoopbackHTTPServerError.bindFailed("getsockname: \(reason)")
        }
        return Listener(descriptor: descriptor, port: SocketAddress.port(of: bound))
    }

    /// Accepts one pending connection: a blocking, close-on-exec socket with
    /// `TCP_NODELAY` (responses go out in one write, so Nagle would only add delay)
    /// and a send timeout. `nil` when none is pending; `errno` then says why.
    static func accept(from listener: Int32, sendTimeout: Double) -> Int32? {
        while true {
            let descriptor = Glibc.accept(listener, nil, nil)
            if descriptor < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return nil
            }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            var noDelay: Int32 = 1
            _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            var timeout = timeval(seconds: sendTimeout)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            return descriptor
        }
    }

    /// Waits until one of `descriptors` is readable or `deadline` (uptime
    /// nanoseconds; `nil` waits forever) passes. Returns the readable indexes.
    static func waitReadable(_ descriptors: [Int32], until deadline: UInt64?) -> [Int] {
        var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while true {
            var timeout: Int32 = -1
            if let deadline {
                let now = DispatchTime.now().uptimeNanoseconds
                let remaining = deadline > now ? deadline - now : 0
                // Round up so a wake-up never lands just before the deadline.
                timeout = Int32(clamping: (remaining + 999_999) / 1_000_000)
            }
            let result = poll(&polled, nfds_t(polled.count), timeout)
            if result < 0 {
                if errno == EINTR { continue }
                return Array(polled.indices)
            }
            if result == 0 { return [] }
            return polled.indices.filter { polled[$0].revents != 0 }
        }
    }

    /// Waits until `descriptor` is readable or `deadline` passes. (One descriptor on the
    /// stack: this runs before every request a connection reads.)
    static func waitReadable(_ descriptor: Int32, until deadline: UInt64) -> WaitResult {
        var polled = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let remaining = deadline > now ? deadline - now : 0
            // Round up so a wake-up never lands just before the deadline.
            let result = poll(&polled, 1, Int32(clamping: (remaining + 999_999) / 1_000_000))
            if result < 0, errno == EINTR { continue }
            return result == 0 ? .timedOut : .readable
        }
    }

    /// Reads what is available into `buffer`: the count, 0 at end of stream, -1 on error.
    static func receive(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            return count
        }
    }

    /// Writes all of `bytes`; false when the peer is gone or stopped reading past the send timeout.
    static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += sent
            }
            return true
        }
    }

    /// Creates a close-on-exec pipe: (read end, write end).
    static func makePipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// The text of the current `errno`.
    static func lastError() -> String {
        String(cString: strerror(errno))
    }
}

/// An IPv4 or IPv6 socket address parsed from a numeric host.
private struct SocketAddress {
    var storage = sockaddr_storage()
    var length: socklen_t
    var family: Int32

    init(host: String, port: Int) throws {
        guard (0...65535).contains(port) else { throw LoopbackHTTPServerError.bindFailed("port \(port) out of range") }
        let numericHost = host == "localhost" ? "127.0.0.1" : host
        var ipv4 = sockaddr_in()
        var ipv6 = sockaddr_in6()
        if inet_pton(AF_INET, numericHost, &ipv4.sin_addr) == 1 {
            ipv4.sin_family = sa_family_t(AF_INET)
            ipv4.sin_port = in_port_t(UInt16(port).bigEndian)
            family = AF_INET
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutableBytes(of: &storage) { target in
                withUnsafeBytes(of: &ipv4) { target.copyMemory(from: $0) }
            }
        } else if inet_pton(AF_INET6, numericHost, &ipv6.sin6_addr) == 1 {
            ipv6.sin6_family = sa_family_t(AF_INET6)
            ipv6.sin6_port = in_port_t(UInt16(port).bigEndian)
            family = AF_INET6
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutableBytes(of: &storage) { target in
                withUnsafeBytes(of: &ipv6) { target.copyMemory(from: $0) }
            }
        } else {
            throw LoopbackHTTPServerError.invalidHost(host)
        }
    }

    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafePointer(to: storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// The port of a bound IPv4 or IPv6 address.
    static func port(of address: sockaddr_storage) -> Int {
        var address = address
        return withUnsafeBytes(of: &address) { raw in
            // sin_port and sin6_port sit at the same offset, right after the family.
            let port = raw.load(fromByteOffset: MemoryLayout<sa_family_t>.size, as: UInt16.self)
            return Int(UInt16(bigEndian: port))
        }
    }
}

private extension timeval {
    init(seconds: Double) {
        let whole = max(0, seconds.rounded(.down))
        self.init(tv_sec: Int(whole), tv_usec: Int((max(0, seconds) - whole) * 1_000_000))
    }
}
