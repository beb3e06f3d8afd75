import Foundation
import Synchronization

/// HTTP through libcurl with nothing else: the platform's floor, which the benchmark's
/// `bare client (libcurl)` rows measure the SDK against.
///
/// One thread runs one multi handle (`curl_multi_poll`, `curl_multi_perform`,
/// `curl_multi_info_read`); a request crosses to it in a locked array and a
/// `curl_multi_wakeup`. Each easy handle gets the URL, the header list, the body
/// (`CURLOPT_COPYPOSTFIELDS`), a timeout and a write callback that appends to one buffer:
/// no head reader (the status comes from `CURLINFO_RESPONSE_CODE`), no size limit, no
/// keep-alive policy, no cancellation, no second deadline. Connections are kept alive, at most
/// six per host (as the SDK's transport and URLSession keep). Its libcurl is its own
/// (``BareLibcurl``): nothing of the SDK's transport.
final class BareLibcurlClient: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    typealias Completion = @Sendable (Result<(Int, Data), Failure>) -> Void

    /// One request in flight: its handle, header list, body so far and who waits for it.
    private final class Transfer {
        let completion: Completion
        var headers: OpaquePointer?
        var body = Data()

        init(completion: @escaping Completion) { self.completion = completion }
    }

    private struct Pending {
        var url: String
        var method: String
        var headers: [String]
        var body: Data?
        var timeoutMilliseconds: Int
        var completion: Completion
    }

    private let curl: BareLibcurl
    private let multi: OpaquePointer
    private let inbox = Mutex<(pending: [Pending], stopping: Bool)>(([], false))
    private var running: [OpaquePointer: Transfer] = [:]

    private static let write: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int =
        { bytes, size, count, owner in
            guard let bytes, let owner else { return 0 }
            let total = size * count
            Unmanaged<Transfer>.fromOpaque(owner).takeUnretainedValue().body.append(
                UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: total)
            return total
        }

    /// Starts the client's thread; throws when libcurl cannot be loaded.
    init() throws {
        curl = try BareLibcurl.shared.mapError { Failure(description: $0.description) }.get()
        guard let multi = curl.multiInit() else { throw Failure(description: "curl_multi_init failed") }
        self.multi = multi
        _ = curl.multiSetLong(multi, BareLibcurl.maxHostConnections, 6)
        let thread = Thread { [self] in run() }
        thread.name = "bare libcurl client"
        thread.start()
    }

    /// Ends the thread (transfers under way are dropped unanswered).
    func shutdown() {
        inbox.withLock { $0.stopping = true }
        _ = curl.multiWakeup(multi)
    }

    /// One request; the status and body, or why there are none.
    func send(_ method: String, _ url: URL, _ headers: [(String, String)], body: Data?, timeout: TimeInterval)
        async throws -> (Int, Data)
    {
        let lines = headers.map { "\($0.0): \($0.1)" } + ["Expect:"]
        let result: Result<(Int, Data), Failure> = await withCheckedContinuation { continuation in
            let pending = Pending(
                url: url.absoluteString, method: method, headers: lines, body: body,
                timeoutMilliseconds: Int(timeout * 1000),
                completion: { continuation.resume(returning: $0) })
            inbox.withLock { $0.pending.append(pending) }
            _ = curl.multiWakeup(multi)
        }
        return try result.get()
    }

    private func run() {
        while true {
            let (pending, stopping) = inbox.withLock { inbox in
                defer { inbox.pending.removeAll() }
                return (inbox.pending, inbox.stopping)
            }
            if stopping { break }
            for request in pending { start(request) }
            var still: Int32 = 0
            _ = curl.multiPerform(multi, &still)
            var left: Int32 = 0
            while let message = curl.multiInfoRead(multi, &left) {
                let pointer = MemoryLayout<UnsafeRawPointer>.stride
                guard message.load(as: Int32.self) == BareLibcurl.messageDone,
                    let easy = message.load(fromByteOffset: pointer, as: OpaquePointer?.self)
                else { continue }
                let code = message.load(fromByteOffset: 2 * pointer, as: Int32.self)
                finish(easy, code: code)
            }
            _ = curl.multiPoll(multi, nil, 0, 60_000, nil)
        }
        for easy in Array(running.keys) { finish(easy, code: -1) }
        _ = curl.multiCleanup(multi)
    }

    private func start(_ request: Pending) {
        guard let easy = curl.easyInit() else {
            return request.completion(.failure(Failure(description: "curl_easy_init failed")))
        }
        let transfer = Transfer(completion: request.completion)
        let owner = UnsafeRawPointer(Unmanaged.passUnretained(transfer).toOpaque())
        _ = curl.easySetLong(easy, BareLibcurl.Option.noSignal, 1)
        _ = request.url.withCString { curl.easySetPointer(easy, BareLibcurl.Option.url, $0) }
        _ = curl.easySetLong(easy, BareLibcurl.Option.timeoutMilliseconds, request.timeoutMilliseconds)
        // The same `Accept-Encoding` as the SDK's transport: the same request on the wire.
        _ = "".withCString { curl.easySetPointer(easy, BareLibcurl.Option.acceptEncoding, $0) }
        for line in request.headers { transfer.headers = curl.slistAppend(transfer.headers, line) }
        _ = curl.easySetPointer(easy, BareLibcurl.Option.httpHeader, UnsafeRawPointer(transfer.headers))
        if let body = request.body {
            _ = curl.easySetOffset(easy, BareLibcurl.Option.postFieldSizeLarge, Int64(body.count))
            _ = body.withUnsafeBytes { bytes in
                "".withCString { empty in
                    curl.easySetPointer(
                        easy, BareLibcurl.Option.copyPostFields, bytes.baseAddress ?? UnsafeRawPointer(empty))
                }
            }
        }
        if request.method != "GET" && request.method != "POST" {
            _ = request.method.withCString { curl.easySetPointer(easy, BareLibcurl.Option.customRequest, $0) }
        }
        _ = curl.easySetPointer(
            easy, BareLibcurl.Option.writeFunction, unsafeBitCast(Self.write, to: UnsafeRawPointer.self))
        _ = curl.easySetPointer(easy, BareLibcurl.Option.writeData, owner)
        running[easy] = transfer
        _ = curl.multiAddHandle(multi, easy)
    }

    private func finish(_ easy: OpaquePointer, code: Int32) {
        guard let transfer = running.removeValue(forKey: easy) else { return }
        var status = 0
        _ = curl.easyGetInfo(easy, BareLibcurl.responseCode, &status)
        _ = curl.multiRemoveHandle(multi, easy)
        curl.easyCleanup(easy)
        curl.slistFreeAll(transfer.headers)
        if code == 0 {
            transfer.completion(.success((status, transfer.body)))
        } else {
            transfer.completion(.failure(Failure(description: "libcurl: CURLcode \(code)")))
        }
    }
}
