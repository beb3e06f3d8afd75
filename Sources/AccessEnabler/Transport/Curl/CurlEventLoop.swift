import Foundation
import Synchronization

/// One thread, one libcurl multi handle, every request of a ``CurlTransport``.
///
/// Requests cross to the thread through a mailbox: ``start(_:)`` and ``abandon(_:)`` put an
/// exchange in it and wake the thread (`curl_multi_wakeup`). The thread's turn: take the
/// mail (set up and add the new transfers, remove the abandoned ones), let libcurl move
/// every transfer (`curl_multi_perform`), end the transfers libcurl reports done and those
/// past their deadline, then sleep in `curl_multi_poll` on every transfer's sockets until
/// one is ready, libcurl's next timer, the nearest deadline, or a wake-up. A request that
/// waits on a silent server therefore costs a poll that returns at its timeout.
///
/// Handles are freed on the thread at once: a finished, timed-out, abandoned (the caller
/// cancelled) or stopped transfer is removed from the multi handle and cleaned up in the
/// turn that sees it. The thread starts with the first request and ends when the transport
/// is released (``stop()``).
final class CurlEventLoop: @unchecked Sendable {
    /// The most connections kept to one host, as URLSession keeps (its
    /// `httpMaximumConnectionsPerHost`); further transfers wait for one inside libcurl.
    static let maximumConnectionsPerHost = 6
    /// How long the thread sleeps when nothing is under way (a wake-up ends it sooner).
    static let idleWaitMilliseconds: Int32 = 60_000
    /// `CURLMSG_DONE`: a transfer of the multi handle ended.
    private static let messageDone: Int32 = 1

    let curl: LibCurl
    private let multi: OpaquePointer

    private struct Mail {
        var started: [CurlExchange] = []
        var abandoned: [CurlExchange] = []
        var stopping = false
        var threadStarted = false
    }

    private let mail = Mutex(Mail())

    // The loop's thread only.
    private var running: [OpaquePointer: CurlExchange] = [:]
    private var connections: KeptAliveConnections

    /// A loop with its own multi handle; its thread starts with the first request.
    init(curl: LibCurl, assumedServerTimeout: TimeInterval) throws(TransportFailure) {
        guard let multi = curl.multiInit() else {
            throw .other("libcurl could not create a multi handle (curl_multi_init)")
        }
        self.curl = curl
        self.multi = multi
        connections = KeptAliveConnections(assumedServerTimeout: assumedServerTimeout)
        _ = curl.multiSetLong(multi, CurlMultiOption.maxHostConnections.rawValue, Self.maximumConnectionsPerHost)
    }

    /// Hands `exchange` to the thread, which sets it up and adds it in its next turn.
    func start(_ exchange: CurlExchange) {
        let startThread: Bool = mail.withLock { mail in
            mail.started.append(exchange)
            defer { mail.threadStarted = true }
            return !mail.threadStarted
        }
        if startThread {
            let thread = Thread { [self] in run() }
            thread.name = "AccessEnabler libcurl"
            thread.start()
        } else {
            _ = curl.multiWakeup(multi)
        }
    }

    /// The caller gave up on `exchange` (it has ended already): its handle is freed in the
    /// thread's next turn.
    func abandon(_ exchange: CurlExchange) {
        mail.withLock { $0.abandoned.append(exchange) }
        _ = curl.multiWakeup(multi)
    }

    /// Ends the thread: transfers still under way end as cancelled, every handle is freed.
    func stop() {
        let started: Bool = mail.withLock { mail in
            mail.stopping = true
            return mail.threadStarted
        }
        if started {
            _ = curl.multiWakeup(multi)
        } else {
            _ = curl.multiCleanup(multi)
        }
    }

    private func run() {
        while true {
            let (started, abandoned, stopping) = mail.withLock { mail in
                defer {
                    mail.started.removeAll(keepingCapacity: true)
                    mail.abandoned.removeAll(keepingCapacity: true)
                }
                return (mail.started, mail.abandoned, mail.stopping)
            }
            for exchange in started { begin(exchange) }
            for exchange in abandoned { end(exchange, with: nil) }
            if stopping {
                for exchange in Array(running.values) { end(exchange, with: .failure(.cancelled)) }
                _ = curl.multiCleanup(multi)
                return
            }
            var stillRunning: Int32 = 0
            _ = curl.multiPerform(multi, &stillRunning)
            readMessages()
            let now = DispatchTime.now().uptimeNanoseconds
            for exchange in Array(running.values) where exchange.deadline <= now {
                end(exchange, with: .failure(.timedOut))
            }
            _ = curl.multiPoll(multi, nil, 0, waitMilliseconds(now: now), nil)
        }
    }

    /// Sets `exchange` up and adds it, unless its caller gave up already.
    private func begin(_ exchange: CurlExchange) {
        guard !exchange.isFinished else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let fresh = connections.starting(host: exchange.host, body: exchange.plan.body, now: now)
        if let failure = CurlEasySetup.prepare(exchange, freshConnection: fresh, curl: curl) {
            connections.ended(host: exchange.host, result: .failure(failure), now: now)
            exchange.finish(.failure(failure))
            return
        }
        guard let easy = exchange.easy, curl.multiAddHandle(multi, easy) == 0 else {
            CurlEasySetup.release(exchange, curl: curl)
            let failure = TransportFailure.other("libcurl could not start the transfer (curl_multi_add_handle)")
            connections.ended(host: exchange.host, result: .failure(failure), now: now)
            exchange.finish(.failure(failure))
            return
        }
        running[easy] = exchange
    }

    /// Removes `exchange`'s transfer and frees its handle, then ends its caller's side with
    /// `outcome` (`nil`: it has ended already).
    private func end(_ exchange: CurlExchange, with outcome: CurlExchange.Outcome?) {
        guard let easy = exchange.easy, running.removeValue(forKey: easy) != nil else { return }
        _ = curl.multiRemoveHandle(multi, easy)
        CurlEasySetup.release(exchange, curl: curl)
        connections.ended(
            host: exchange.host, result: outcome ?? .failure(.cancelled), now: DispatchTime.now().uptimeNanoseconds)
        if let outcome { exchange.finish(outcome) }
    }

    /// Ends every transfer libcurl reports done.
    private func readMessages() {
        var left: Int32 = 0
        while let message = curl.multiInfoRead(multi, &left) {
            // struct CURLMsg { CURLMSG msg; CURL *easy_handle; union { void *whatever; CURLcode result; } data; }
            let pointerSize = MemoryLayout<UnsafeRawPointer>.stride
            let kind = message.load(as: Int32.self)
            guard kind == Self.messageDone,
                let easy = message.load(fromByteOffset: pointerSize, as: OpaquePointer?.self),
                let exchange = running[easy]
            else { continue }
            let code = CurlCode(rawValue: message.load(fromByteOffset: 2 * pointerSize, as: Int32.self))
            let outcome = exchange.reception.outcome(
                code: code, detail: CurlEasySetup.detail(of: exchange, code: code, curl: curl))
            end(exchange, with: outcome)
        }
    }

    /// How long the poll may sleep: until the nearest deadline, at most the idle wait
    /// (libcurl shortens it further for its own timers).
    private func waitMilliseconds(now: UInt64) -> Int32 {
        guard let nearest = running.values.lazy.map(\.deadline).min() else { return Self.idleWaitMilliseconds }
        guard nearest > now else { return 0 }
        let milliseconds = (nearest - now + 999_999) / 1_000_000
        return Int32(clamping: min(milliseconds, UInt64(truncatingIfNeeded: Self.idleWaitMilliseconds)))
    }
}
