import Foundation

/// Sets up the easy handle of one exchange: every option the transport sets, in one place.
///
/// - Only `http` and `https`; redirects are not followed (a 3xx is the answer).
/// - HTTPS is verified as libcurl verifies it by default (the peer's certificate against
///   the system's store, and the host name): no verification option is ever touched.
/// - Proxies come from the environment as libcurl reads them (`http_proxy`,
///   `HTTPS_PROXY`, `ALL_PROXY`, `NO_PROXY`): no proxy option is set.
/// - Every encoding libcurl can decode is accepted (`Accept-Encoding`, as URLSession asks),
///   and an encoded body is decoded before the size limit counts it.
/// - The whole transfer is bounded by the request's timeout; no signal is used for it.
/// - A request with a body is never sent twice: libcurl cannot rewind its body, so where it
///   would repeat the request (its reused connection died before the answer began) the
///   request fails as a lost connection instead. A request without a body is repeated then,
///   once, on a new connection.
enum CurlEasySetup {
    /// libcurl's header, write and read callbacks: bytes, the size of an item, the number of
    /// items, the pointer the transfer was given (its ``CurlExchange``); the bytes taken.
    typealias DataCallback = @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int

    /// The header callback: one head line per call.
    static let headerCallback: DataCallback = { bytes, size, count, owner in
        guard let owner else { return 0 }
        let exchange = Unmanaged<CurlExchange>.fromOpaque(owner).takeUnretainedValue()
        let (total, overflow) = size.multipliedReportingOverflow(by: count)
        guard !overflow, total >= 0 else { return 0 }
        let line = UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : total)
        return exchange.reception.receive(headerLine: line) ? total : 0
    }

    /// The write callback: a piece of the (decoded) body per call.
    static let bodyCallback: DataCallback = { bytes, size, count, owner in
        guard let owner else { return 0 }
        let exchange = Unmanaged<CurlExchange>.fromOpaque(owner).takeUnretainedValue()
        let (total, overflow) = size.multipliedReportingOverflow(by: count)
        guard !overflow, total >= 0 else { return 0 }
        let piece = UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : total)
        return exchange.reception.receive(body: piece) ? total : 0
    }

    /// The read callback: the next piece of the request body per call, 0 at its end.
    static let bodyReader: DataCallback = { buffer, size, count, owner in
        guard let owner, let buffer else { return 0 }
        let exchange = Unmanaged<CurlExchange>.fromOpaque(owner).takeUnretainedValue()
        let (room, overflow) = size.multipliedReportingOverflow(by: count)
        guard !overflow, room > 0, let body = exchange.plan.body, exchange.bodySent < body.count else { return 0 }
        let end = exchange.bodySent + min(room, body.count - exchange.bodySent)
        let start = body.startIndex + exchange.bodySent
        body.copyBytes(
            to: UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: UInt8.self),
            from: start..<(body.startIndex + end))
        let copied = end - exchange.bodySent
        exchange.bodySent = end
        return copied
    }

    /// libcurl's error buffer size (`CURL_ERROR_SIZE`).
    static let errorBufferSize = 256

    /// Gives `exchange` an easy handle ready to be added to the multi handle, or says why
    /// it cannot have one. On failure whatever was made is released.
    static func prepare(_ exchange: CurlExchange, freshConnection: Bool, curl: LibCurl) -> TransportFailure? {
        guard let easy = curl.easyInit() else { return .other("libcurl could not create a transfer (curl_easy_init)") }
        exchange.easy = easy
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: errorBufferSize)
        buffer.initialize(repeating: 0, count: errorBufferSize)
        exchange.errorBuffer = buffer
        do {
            try configure(exchange, easy: easy, freshConnection: freshConnection, curl: curl)
            return nil
        } catch {
            release(exchange, curl: curl)
            return error
        }
    }

    /// Frees the easy handle, its header list and error buffer (the handle must be out of
    /// the multi handle).
    static func release(_ exchange: CurlExchange, curl: LibCurl) {
        if let easy = exchange.easy { curl.easyCleanup(easy) }
        if let list = exchange.headerList { curl.slistFreeAll(list) }
        exchange.errorBuffer?.deallocate()
        exchange.easy = nil
        exchange.headerList = nil
        exchange.errorBuffer = nil
    }

    /// What libcurl said about the transfer's failure: its error buffer, else its sentence
    /// for the code.
    static func detail(of exchange: CurlExchange, code: CurlCode, curl: LibCurl) -> String {
        if let buffer = exchange.errorBuffer, buffer.pointee != 0 {
            return String(cString: buffer).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return curl.sentence(for: code)
    }

    private static func configure(_ exchange: CurlExchange, easy: OpaquePointer, freshConnection: Bool, curl: LibCurl)
        throws(TransportFailure)
    {
        let plan = exchange.plan
        let owner = UnsafeRawPointer(Unmanaged.passUnretained(exchange).toOpaque())
        try set(.noSignal, 1, easy, curl)
        try set(.errorBuffer, UnsafeRawPointer(exchange.errorBuffer), easy, curl)
        try set(.url, plan.url, easy, curl)
        if curl.easySetPointer(easy, CurlOption.protocolsString.rawValue, "http,https") != CurlCode.ok.rawValue {
            try set(.protocols, CurlOption.httpAndHTTPS, easy, curl)
        }
        try set(.followLocation, 0, easy, curl)
        try set(.acceptEncoding, "", easy, curl)
        try set(.timeoutMilliseconds, plan.timeoutMilliseconds, easy, curl)
        // A proxy's CONNECT answer is not the server's: keep it away from the head reader.
        _ = curl.easySetLong(easy, CurlOption.suppressConnectHeaders.rawValue, 1)
        if freshConnection { try set(.freshConnect, 1, easy, curl) }
        if let limit = plan.limit {
            try check(curl.easySetOffset(easy, CurlOption.maxFileSizeLarge.rawValue, Int64(limit)), .maxFileSizeLarge)
        }

        var list: OpaquePointer?
        for line in plan.headerLines {
            guard let longer = curl.slistAppend(list, line) else {
                if let list { curl.slistFreeAll(list) }
                throw .other("libcurl could not hold the request's headers (curl_slist_append)")
            }
            list = longer
        }
        exchange.headerList = list
        try set(.httpHeader, UnsafeRawPointer(list), easy, curl)

        switch plan.method {
        case .get:
            try set(.httpGet, 1, easy, curl)
        case .head:
            try set(.noBody, 1, easy, curl)
        case .post:
            try setBody(plan.body ?? Data(), easy, curl)
        case .custom(let method):
            if let body = plan.body { try setBody(body, easy, curl) }
            try set(.customRequest, method, easy, curl)
        }
        try set(.readData, owner, easy, curl)

        try set(.headerFunction, unsafeBitCast(headerCallback, to: UnsafeRawPointer.self), easy, curl)
        try set(.headerData, owner, easy, curl)
        try set(.writeFunction, unsafeBitCast(bodyCallback, to: UnsafeRawPointer.self), easy, curl)
        try set(.writeData, owner, easy, curl)
    }

    /// The body, read by libcurl through ``bodyReader`` with no way to rewind it: libcurl
    /// repeats a request whose reused connection died before a byte of the answer came, and
    /// a request with a body may have been acted on already, so it must fail instead (a
    /// request without a body is repeated: that is what a kept-alive connection the server
    /// closed between two requests needs).
    private static func setBody(_ body: Data, _ easy: OpaquePointer, _ curl: LibCurl) throws(TransportFailure) {
        try set(.post, 1, easy, curl)
        try check(
            curl.easySetOffset(easy, CurlOption.postFieldSizeLarge.rawValue, Int64(body.count)), .postFieldSizeLarge)
        try set(.readFunction, unsafeBitCast(bodyReader, to: UnsafeRawPointer.self), easy, curl)
    }

    private static func set(_ option: CurlOption, _ value: Int, _ easy: OpaquePointer, _ curl: LibCurl)
        throws(TransportFailure)
    {
        try check(curl.easySetLong(easy, option.rawValue, value), option)
    }

    private static func set(_ option: CurlOption, _ value: UnsafeRawPointer?, _ easy: OpaquePointer, _ curl: LibCurl)
        throws(TransportFailure)
    {
        try check(curl.easySetPointer(easy, option.rawValue, value), option)
    }

    /// A string option: libcurl copies it before `curl_easy_setopt` returns.
    private static func set(_ option: CurlOption, _ value: String, _ easy: OpaquePointer, _ curl: LibCurl)
        throws(TransportFailure)
    {
        try check(value.withCString { curl.easySetPointer(easy, option.rawValue, $0) }, option)
    }

    private static func check(_ code: Int32, _ option: CurlOption) throws(TransportFailure) {
        guard code != CurlCode.ok.rawValue else { return }
        throw .other("libcurl refused the option CURLOPT_\(option.name) (CURLE_\(CurlCode(rawValue: code).name))")
    }
}
