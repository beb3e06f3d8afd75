import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One connected process: its lines read on a thread of its own, its answers written in
/// order on a queue of its own, so a process that stops reading holds up nobody else.
///
/// The process closing its end (even only its writing half, as `echo … | socat` does) ends
/// the connection once what was already asked has been answered; the descriptor is closed
/// when the reader has stopped and the last write is done, never while either may use it.
///
/// A line longer than ``ServiceWire/maximumLineLength`` is answered with `lineTooLong` and the
/// connection ended (the rest of such a line cannot be told from the next request), as is a
/// process the service refuses: the answer goes out, the writing half closes, and what the
/// process still sends is read and dropped for at most ``drainTime`` — so a process that wrote
/// before it read gets the answer, not a broken pipe. A write that cannot go out within
/// ``writeTimeout`` closes the connection.
package final class ServiceConnection: @unchecked Sendable {
    /// Milliseconds a write may wait for the process to read.
    static let writeTimeout: Int32 = 5_000
    /// Seconds an ending connection reads and drops what the process still sends.
    static let drainTime: TimeInterval = 5

    /// The connection's number, unique in the service's life.
    package let number: Int
    /// The connecting process, as the kernel reports it.
    package let peer: PeerCredentials?
    private let descriptor: Int32
    private let writer: DispatchQueue
    private let lock = NSLock()
    private var shut = false
    private var readerDone = false
    private var released = false
    /// Set once the connection is ending: until then what the process sends is dropped.
    private var drainUntil: Date?

    /// Wraps the connected socket `descriptor`.
    package init(number: Int, descriptor: Int32) {
        self.number = number
        self.descriptor = descriptor
        peer = PeerCredentials(socket: descriptor)
        writer = DispatchQueue(label: "accessenabler.provider-service.connection-\(number)")
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    }

    /// Reads lines until the process closes its end or ``close()`` is called: each whole
    /// line (without its newline) goes to `line`, then `ended` is called once; the owner then
    /// calls ``closeAfterSending()``.
    package func startReading(line: @escaping @Sendable ([UInt8]) -> Void, ended: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let draining = lock.withLock { drainUntil }
                var wait: Int32 = -1
                if let draining {
                    let left = draining.timeIntervalSinceNow
                    guard left > 0 else { break }
                    wait = Int32(left * 1_000) + 1
                }
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, wait)
                if ready < 0, errno == EINTR { continue }
                if ready == 0, draining != nil { continue }
                guard ready > 0 else { break }
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                guard count > 0 else { break }
                if draining != nil { continue }
                pending += buffer[0..<count]
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    var text = Array(pending[..<newline])
                    pending.removeSubrange(...newline)
                    if text.last == UInt8(ascii: "\r") { text.removeLast() }
                    if !text.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { line(text) }
                }
                if pending.count > ServiceWire.maximumLineLength {
                    let refusal = ServiceError(
                        .lineTooLong, "A request line may be at most \(ServiceWire.maximumLineLength) bytes; closing.")
                    send(ServiceWire.line(answering: nil, with: .failure(refusal)))
                    pending = []
                    endAfterSending()
                }
            }
            ended()
            lock.withLock { readerDone = true }
            writer.async { [self] in releaseWhenDone() }
        }
        thread.name = "accessenabler.provider-service.read-\(number)"
        thread.start()
    }

    /// Writes `line` and a newline, after what was sent before.
    package func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        writer.async { [self] in
            guard !lock.withLock({ shut }) else { return }
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes {
                    Glibc.send(descriptor, $0.baseAddress! + written, $0.count - written, Int32(MSG_NOSIGNAL))
                }
                if count > 0 {
                    written += count
                    continue
                }
                if count < 0, errno == EINTR { continue }
                if count < 0, errno == EAGAIN {
                    var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    if poll(&poller, 1, Self.writeTimeout) > 0 { continue }
                }
                close()
                return
            }
        }
    }

    /// Ends the connection the process may still write on: once what was sent before has gone
    /// out, the writing half closes, and the reader drops what comes for at most ``drainTime``.
    package func endAfterSending() {
        lock.withLock {
            if drainUntil == nil { drainUntil = Date().addingTimeInterval(Self.drainTime) }
        }
        writer.async { [self] in
            let first = lock.withLock {
                defer { shut = true }
                return !shut
            }
            if first { shutdown(descriptor, Int32(SHUT_WR)) }
            releaseWhenDone()
        }
    }

    /// Ends the connection once what was sent before has gone out.
    package func closeAfterSending() {
        writer.async { [self] in
            close()
            releaseWhenDone()
        }
    }

    /// Closes the descriptor once the reader has stopped and the connection is shut (on the
    /// writer's queue, after every write).
    private func releaseWhenDone() {
        let release = lock.withLock {
            guard readerDone, shut, !released else { return false }
            released = true
            return true
        }
        if release { Glibc.close(descriptor) }
    }

    /// Ends the connection: the reader stops, nothing more is written.
    package func close() {
        let first = lock.withLock {
            defer { shut = true }
            return !shut
        }
        if first { shutdown(descriptor, Int32(SHUT_RDWR)) }
    }
}
